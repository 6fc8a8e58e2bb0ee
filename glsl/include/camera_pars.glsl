// Per-frame camera. u_world places the model (model space -> world), u_viewProj is projection * view.
uniform mat4 u_viewProj;
uniform mat4 u_world;
uniform vec3 u_cameraPos;
