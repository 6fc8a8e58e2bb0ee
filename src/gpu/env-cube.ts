import { envLevels, studioEnvironment } from '../render/studio-env.ts';

/**
 * The pbr shading's environment on the GPU: the prefiltered studio cube (render/studio-env.ts, baked at build
 * time and decoded once per page) uploaded as an RGBA16F cube map with its roughness mip levels, from the
 * binary16 texels as they are (HALF_FLOAT: no conversion), and the 9 SH coefficients of its diffuse light. The caller owns the texture (dispose deletes it).
 */
export class EnvCube {
  readonly texture: WebGLTexture;
  /** 27 floats: the irradiance SH (u_envSH, pbr_pars.glsl). */
  readonly sh: Float32Array;
  /** The last mip level (roughness 1). */
  readonly maxLod: number;

  constructor(private readonly gl: WebGL2RenderingContext) {
    const { levels, sh } = studioEnvironment();
    this.sh = sh;
    this.maxLod = envLevels() - 1;
    const tex = gl.createTexture();
    if (!tex) throw new Error('createTexture failed (context lost?)');
    this.texture = tex;
    gl.bindTexture(gl.TEXTURE_CUBE_MAP, tex);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 4);
    levels.forEach((faces, l) => {
      const w = Math.round(Math.sqrt(faces[0]!.length / 4));
      faces.forEach((data, f) => gl.texImage2D(gl.TEXTURE_CUBE_MAP_POSITIVE_X + f, l, gl.RGBA16F, w, w, 0, gl.RGBA, gl.HALF_FLOAT, data));
    });
    gl.texParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
    gl.texParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_MAX_LEVEL, this.maxLod);
    gl.bindTexture(gl.TEXTURE_CUBE_MAP, null);
  }

  dispose(): void {
    this.gl.deleteTexture(this.texture);
  }
}
