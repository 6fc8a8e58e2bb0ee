;; The bounding box of a mesh skinned by linear blend skinning (software-skin.ts skinMesh's arithmetic, then
;; bounds.ts computeBounds), in WebAssembly SIMD: one vertex at a time, the blended matrix's four columns as
;; four float32 vectors.
;;
;; Source of the bytes in skin-bounds-wasm.ts (npm run gen assembles it with wabt; a unit test checks the two
;; agree). skin-bounds.ts copies a mesh and its palette into this module's memory, calls $bounds, reads the box.
;;
;; Contract of (export "bounds") (pos joints weights count pal out), every address a byte address into
;; (export "mem"), 16-aligned:
;; - pos: 3 float32 per vertex; joints: 4 uint16 per vertex, each < the palette's slot count (not checked here:
;;   the model's validation did); weights: 4 float32 per vertex, descending; pal: 16 float32 per slot,
;;   column-major, bind space to model space; count: vertices, at least 1.
;; - Per vertex, as skinMesh: the weights up to the first one that is not > 0, renormalised to sum 1, blend their
;;   slots' matrices; a vertex whose first weight is not > 0 takes slot joints[0] whole. The point is that matrix
;;   times (p, 1).
;; - out: 8 float32 written, the box's min (x, y, z, -) then its max (x, y, z, -). A NaN coordinate never wins
;;   (pmin / pmax keep the box), as computeBounds.
;; - Float32 arithmetic (skinMesh's is float64, rounded once to float32): the two agree to a few float32 ulps.
(module
  (memory (export "mem") 1)

  (func (export "bounds")
    (param $pos i32) (param $joints i32) (param $weights i32) (param $count i32) (param $pal i32) (param $out i32)
    (local $v i32)      ;; vertex index
    (local $wa i32)     ;; address of its weights
    (local $ja i32)     ;; address of its joints
    (local $pa i32)     ;; address of its position
    (local $n i32)      ;; weights used
    (local $k i32)      ;; influence index
    (local $a i32)      ;; address of a slot's matrix
    (local $sum f32) (local $w f32) (local $inv f32)
    (local $ws v128)    ;; a weight, splat
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128)  ;; the blended matrix's columns
    (local $p v128)     ;; the skinned point (lane 3 unused)
    (local $min v128) (local $max v128)

    (local.set $min (v128.const f32x4 inf inf inf inf))
    (local.set $max (v128.const f32x4 -inf -inf -inf -inf))
    (loop $vertex
      (local.set $wa (i32.add (local.get $weights) (i32.shl (local.get $v) (i32.const 4))))
      (local.set $ja (i32.add (local.get $joints) (i32.shl (local.get $v) (i32.const 3))))
      (local.set $sum (f32.load (local.get $wa)))
      (if (f32.gt (local.get $sum) (f32.const 0))
        (then
          ;; n = the leading weights > 0; sum = their sum.
          (local.set $n (i32.const 1))
          (block $counted
            (local.set $w (f32.load offset=4 (local.get $wa)))
            (br_if $counted (i32.eqz (f32.gt (local.get $w) (f32.const 0))))
            (local.set $sum (f32.add (local.get $sum) (local.get $w)))
            (local.set $n (i32.const 2))
            (local.set $w (f32.load offset=8 (local.get $wa)))
            (br_if $counted (i32.eqz (f32.gt (local.get $w) (f32.const 0))))
            (local.set $sum (f32.add (local.get $sum) (local.get $w)))
            (local.set $n (i32.const 3))
            (local.set $w (f32.load offset=12 (local.get $wa)))
            (br_if $counted (i32.eqz (f32.gt (local.get $w) (f32.const 0))))
            (local.set $sum (f32.add (local.get $sum) (local.get $w)))
            (local.set $n (i32.const 4)))
          (local.set $inv (f32.div (f32.const 1) (local.get $sum)))
          (local.set $c0 (v128.const i32x4 0 0 0 0))
          (local.set $c1 (v128.const i32x4 0 0 0 0))
          (local.set $c2 (v128.const i32x4 0 0 0 0))
          (local.set $c3 (v128.const i32x4 0 0 0 0))
          (local.set $k (i32.const 0))
          (loop $influence
            ;; ws = weights[k] / sum; a = pal + joints[k] · 64 (16 float32 per slot)
            (local.set $ws
              (f32x4.splat
                (f32.mul
                  (f32.load (i32.add (local.get $wa) (i32.shl (local.get $k) (i32.const 2))))
                  (local.get $inv))))
            (local.set $a
              (i32.add
                (local.get $pal)
                (i32.shl
                  (i32.load16_u (i32.add (local.get $ja) (i32.shl (local.get $k) (i32.const 1))))
                  (i32.const 6))))
            (local.set $c0 (f32x4.add (local.get $c0) (f32x4.mul (v128.load offset=0 (local.get $a)) (local.get $ws))))
            (local.set $c1 (f32x4.add (local.get $c1) (f32x4.mul (v128.load offset=16 (local.get $a)) (local.get $ws))))
            (local.set $c2 (f32x4.add (local.get $c2) (f32x4.mul (v128.load offset=32 (local.get $a)) (local.get $ws))))
            (local.set $c3 (f32x4.add (local.get $c3) (f32x4.mul (v128.load offset=48 (local.get $a)) (local.get $ws))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br_if $influence (i32.lt_u (local.get $k) (local.get $n)))))
        (else
          ;; No weight: slot joints[0] whole.
          (local.set $a (i32.add (local.get $pal) (i32.shl (i32.load16_u (local.get $ja)) (i32.const 6))))
          (local.set $c0 (v128.load offset=0 (local.get $a)))
          (local.set $c1 (v128.load offset=16 (local.get $a)))
          (local.set $c2 (v128.load offset=32 (local.get $a)))
          (local.set $c3 (v128.load offset=48 (local.get $a)))))
      ;; p = c0 · x + c1 · y + c2 · z + c3
      (local.set $pa (i32.add (local.get $pos) (i32.mul (local.get $v) (i32.const 12))))
      (local.set $p
        (f32x4.add
          (f32x4.add
            (f32x4.add
              (f32x4.mul (local.get $c0) (v128.load32_splat offset=0 (local.get $pa)))
              (f32x4.mul (local.get $c1) (v128.load32_splat offset=4 (local.get $pa))))
            (f32x4.mul (local.get $c2) (v128.load32_splat offset=8 (local.get $pa))))
          (local.get $c3)))
      ;; pmin(min, p) = p < min ? p : min (a NaN keeps min); pmax likewise.
      (local.set $min (f32x4.pmin (local.get $min) (local.get $p)))
      (local.set $max (f32x4.pmax (local.get $max) (local.get $p)))
      (local.set $v (i32.add (local.get $v) (i32.const 1)))
      (br_if $vertex (i32.lt_u (local.get $v) (local.get $count))))
    (v128.store offset=0 (local.get $out) (local.get $min))
    (v128.store offset=16 (local.get $out) (local.get $max))))
