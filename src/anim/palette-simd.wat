;; The palette product of buildPalette (palette.ts) in WebAssembly SIMD: out[k] = model[bones[k]] · inv[k]
;; for k in [0, slots), column-major 4x4 float32 matrices, four rows of a column at a time.
;;
;; Source of the bytes in palette-simd-wasm.ts (npm run gen assembles it with wabt; a unit test checks the
;; two agree). palette-simd.ts copies the inputs into this module's memory, calls $pal, copies the output out.
;;
;; Contract of (export "pal") (model inv bones out slots), every address a byte address into (export "mem"):
;; - model: 16 float32 per node; bones: slots int16 node indices, each < the node count (not checked here:
;;   the caller's model/build validated them); inv: 16 float32 per slot; out: 16 float32 per slot.
;; - Matrices are affine: rows 3 of model and inv are not read; row 3 of each output is written (0, 0, 0, 1).
;; - Float32 arithmetic: each product and each sum rounded to float32.
;; - out must not overlap model, inv or bones. Nothing else in memory is written.
(module
  (memory (export "mem") 4)

  (func (export "pal")
    (param $model i32) (param $inv i32) (param $bones i32) (param $out i32) (param $slots i32)
    (local $k i32)  ;; slot index
    (local $a i32)  ;; address of model[bones[k]]
    (local $m0 v128) (local $m1 v128) (local $m2 v128) (local $m3 v128)  ;; its columns 0..3

    (block $done
      (br_if $done (i32.eqz (local.get $slots)))
      (loop $slot
        ;; a = model + bones[k] · 64 (16 float32 per node)
        (local.set $a
          (i32.add
            (local.get $model)
            (i32.shl
              (i32.load16_s (i32.add (local.get $bones) (i32.shl (local.get $k) (i32.const 1))))
              (i32.const 6))))
        (local.set $m0 (v128.load offset=0 (local.get $a)))
        (local.set $m1 (v128.load offset=16 (local.get $a)))
        (local.set $m2 (v128.load offset=32 (local.get $a)))
        (local.set $m3 (v128.load offset=48 (local.get $a)))

        ;; Column j of the output = m0 · inv[j].x + m1 · inv[j].y + m2 · inv[j].z (+ m3 for j = 3, the
        ;; translation), row 3 replaced by 0 (j < 3) or 1 (j = 3).
        (v128.store offset=0 (local.get $out)
          (f32x4.replace_lane 3
            (f32x4.add
              (f32x4.add
                (f32x4.mul (local.get $m0) (v128.load32_splat offset=0 (local.get $inv)))
                (f32x4.mul (local.get $m1) (v128.load32_splat offset=4 (local.get $inv))))
              (f32x4.mul (local.get $m2) (v128.load32_splat offset=8 (local.get $inv))))
            (f32.const 0)))
        (v128.store offset=16 (local.get $out)
          (f32x4.replace_lane 3
            (f32x4.add
              (f32x4.add
                (f32x4.mul (local.get $m0) (v128.load32_splat offset=16 (local.get $inv)))
                (f32x4.mul (local.get $m1) (v128.load32_splat offset=20 (local.get $inv))))
              (f32x4.mul (local.get $m2) (v128.load32_splat offset=24 (local.get $inv))))
            (f32.const 0)))
        (v128.store offset=32 (local.get $out)
          (f32x4.replace_lane 3
            (f32x4.add
              (f32x4.add
                (f32x4.mul (local.get $m0) (v128.load32_splat offset=32 (local.get $inv)))
                (f32x4.mul (local.get $m1) (v128.load32_splat offset=36 (local.get $inv))))
              (f32x4.mul (local.get $m2) (v128.load32_splat offset=40 (local.get $inv))))
            (f32.const 0)))
        (v128.store offset=48 (local.get $out)
          (f32x4.replace_lane 3
            (f32x4.add
              (f32x4.add
                (f32x4.add
                  (f32x4.mul (local.get $m0) (v128.load32_splat offset=48 (local.get $inv)))
                  (f32x4.mul (local.get $m1) (v128.load32_splat offset=52 (local.get $inv))))
                (f32x4.mul (local.get $m2) (v128.load32_splat offset=56 (local.get $inv))))
              (local.get $m3))
            (f32.const 1)))

        (local.set $inv (i32.add (local.get $inv) (i32.const 64)))
        (local.set $out (i32.add (local.get $out) (i32.const 64)))
        (br_if $slot
          (i32.lt_u
            (local.tee $k (i32.add (local.get $k) (i32.const 1)))
            (local.get $slots)))))))
