;; The per-frame pose jobs in WebAssembly (SIMD where it is 4-wide): a clip's live channels sampled at one
;; time (sampleClip's interpolation, sample-clip.ts) and the local pose composed into model matrices
;; (localToModel, local-to-model.ts).
;;
;; Source of the bytes in pose-simd-wasm.ts (npm run gen assembles it with wabt; a unit test checks the
;; two agree). pose-simd.ts owns the memory: it places the clip tables, the pose and the matrices, calls
;; these functions and copies the results out. Every address below is a byte address into (export "mem").
;; Float32 arithmetic throughout (each product and sum rounded to float32): the results agree with the
;; JavaScript jobs, which round once from float64, to a few float32 ulps, not bit for bit.
(module
  (memory (export "mem") 1)

  ;; Above this |dot| two rotation keys are nearly equal: normalised lerp (quat-interp.ts NLERP_DOT).
  (global $nlerpDot f32 (f32.const 0.9995))

  ;; Writes q / |q| at $out (4 float32); (0, 0, 0, 1) for a zero quaternion.
  (func $normalize (param $out i32) (param $q v128)
    (local $d v128) (local $len2 f32)
    (local.set $d (f32x4.mul (local.get $q) (local.get $q)))
    (local.set $len2
      (f32.add
        (f32.add
          (f32.add (f32x4.extract_lane 0 (local.get $d)) (f32x4.extract_lane 1 (local.get $d)))
          (f32x4.extract_lane 2 (local.get $d)))
        (f32x4.extract_lane 3 (local.get $d))))
    (if (f32.gt (local.get $len2) (f32.const 0))
      (then
        (v128.store (local.get $out)
          (f32x4.mul (local.get $q)
            (f32x4.splat (f32.div (f32.const 1) (f32.sqrt (local.get $len2)))))))
      (else
        (v128.store (local.get $out) (v128.const f32x4 0 0 0 1)))))

  ;; (export "sample") (recs count locals tl list) → slerps
  ;; Samples `count` channel records into the pose at `locals` (10 float32 per node: t 3, r 4, s 3), which
  ;; the caller has filled with the clip's base pose. A record is 4 int32:
  ;;   kind (0 translation, 1 rotation, 2 scale), byte offset of its first float in the pose, byte offset
  ;;   of its timeline in `tl`, address of its key values (3 or 4 float32 per key).
  ;; A timeline is an int32 key k and a float32 weight w (the segment [k, k + 1] and the blend in it;
  ;; w = 0: key k alone). Translation and scale: lerp. Rotation: with w = 0 the key renormalised; keys
  ;; nearly equal (|dot| > 0.9995) nlerp along the shortest path, renormalised; any other rotation is left
  ;; for the caller's slerp: its record index is appended to `list` (int32) and nothing is written.
  ;; Returns how many records were appended.
  (func (export "sample")
    (param $recs i32) (param $count i32) (param $locals i32) (param $tl i32) (param $list i32) (result i32)
    (local $r i32) (local $n i32) (local $out i32) (local $p i32) (local $k i32) (local $w f32)
    (local $a i32) (local $x f32) (local $y f32) (local $z f32)
    (local $qa v128) (local $qb v128) (local $d v128) (local $dot f32) (local $kb f32)
    (block $done
      (br_if $done (i32.eqz (local.get $count)))
      (loop $rec
        (local.set $out (i32.add (local.get $locals) (i32.load offset=4 (local.get $recs))))
        (local.set $p (i32.add (local.get $tl) (i32.load offset=8 (local.get $recs))))
        (local.set $k (i32.load (local.get $p)))
        (local.set $w (f32.load offset=4 (local.get $p)))
        (if (i32.ne (i32.load (local.get $recs)) (i32.const 1))
          (then
            ;; Translation or scale: v[k] + (v[k + 1] − v[k]) · w.
            (local.set $a (i32.add (i32.load offset=12 (local.get $recs)) (i32.mul (local.get $k) (i32.const 12))))
            (local.set $x (f32.load offset=0 (local.get $a)))
            (local.set $y (f32.load offset=4 (local.get $a)))
            (local.set $z (f32.load offset=8 (local.get $a)))
            (if (f32.ne (local.get $w) (f32.const 0))
              (then
                (local.set $x (f32.add (local.get $x)
                  (f32.mul (f32.sub (f32.load offset=12 (local.get $a)) (local.get $x)) (local.get $w))))
                (local.set $y (f32.add (local.get $y)
                  (f32.mul (f32.sub (f32.load offset=16 (local.get $a)) (local.get $y)) (local.get $w))))
                (local.set $z (f32.add (local.get $z)
                  (f32.mul (f32.sub (f32.load offset=20 (local.get $a)) (local.get $z)) (local.get $w))))))
            (f32.store offset=0 (local.get $out) (local.get $x))
            (f32.store offset=4 (local.get $out) (local.get $y))
            (f32.store offset=8 (local.get $out) (local.get $z)))
          (else
            (local.set $a (i32.add (i32.load offset=12 (local.get $recs)) (i32.shl (local.get $k) (i32.const 4))))
            (local.set $qa (v128.load (local.get $a)))
            (if (f32.eq (local.get $w) (f32.const 0))
              (then (call $normalize (local.get $out) (local.get $qa)))
              (else
                (local.set $qb (v128.load offset=16 (local.get $a)))
                (local.set $d (f32x4.mul (local.get $qa) (local.get $qb)))
                (local.set $dot
                  (f32.add
                    (f32.add
                      (f32.add (f32x4.extract_lane 0 (local.get $d)) (f32x4.extract_lane 1 (local.get $d)))
                      (f32x4.extract_lane 2 (local.get $d)))
                    (f32x4.extract_lane 3 (local.get $d))))
                (if (f32.gt (f32.abs (local.get $dot)) (global.get $nlerpDot))
                  (then
                    ;; nlerp: (1 − w) · a + (±w) · b, the sign of b taken so the path is the short one.
                    (local.set $kb
                      (select (f32.neg (local.get $w)) (local.get $w) (f32.lt (local.get $dot) (f32.const 0))))
                    (call $normalize (local.get $out)
                      (f32x4.add
                        (f32x4.mul (local.get $qa) (f32x4.splat (f32.sub (f32.const 1) (local.get $w))))
                        (f32x4.mul (local.get $qb) (f32x4.splat (local.get $kb))))))
                  (else
                    (i32.store
                      (i32.add (local.get $list) (i32.shl (local.get $n) (i32.const 2)))
                      (local.get $r))
                    (local.set $n (i32.add (local.get $n) (i32.const 1)))))))))
        (local.set $recs (i32.add (local.get $recs) (i32.const 16)))
        (br_if $rec
          (i32.lt_u
            (local.tee $r (i32.add (local.get $r) (i32.const 1)))
            (local.get $count)))))
    (local.get $n))

  ;; (export "l2m") (parents locals model count)
  ;; localToModel: for node i in [0, count), local = T · R · S from the pose at `locals` (10 float32 per
  ;; node: t, r xyzw, s; R scaled by 2/|r|², so a drifting quaternion still gives a pure rotation, a zero
  ;; one none), model[i] = model[parents[i]] · local (parents: int16, < i, or < 0 for a root: model[i] =
  ;; local). `model`: 16 float32 per node, column-major; the bottom row is written (0, 0, 0, 1).
  (func (export "l2m") (param $parents i32) (param $locals i32) (param $model i32) (param $count i32)
    (local $i i32) (local $l i32) (local $o i32) (local $p i32) (local $a i32)
    (local $x f32) (local $y f32) (local $z f32) (local $w f32) (local $sx f32) (local $sy f32) (local $sz f32)
    (local $n f32) (local $k f32)
    (local $xx f32) (local $yy f32) (local $zz f32) (local $xy f32) (local $xz f32) (local $yz f32)
    (local $wx f32) (local $wy f32) (local $wz f32)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128)
    (block $done
      (br_if $done (i32.le_s (local.get $count) (i32.const 0)))
      (loop $node
        (local.set $l (i32.add (local.get $locals) (i32.mul (local.get $i) (i32.const 40))))
        (local.set $x (f32.load offset=12 (local.get $l)))
        (local.set $y (f32.load offset=16 (local.get $l)))
        (local.set $z (f32.load offset=20 (local.get $l)))
        (local.set $w (f32.load offset=24 (local.get $l)))
        (local.set $sx (f32.load offset=28 (local.get $l)))
        (local.set $sy (f32.load offset=32 (local.get $l)))
        (local.set $sz (f32.load offset=36 (local.get $l)))
        (local.set $n
          (f32.add
            (f32.add
              (f32.add (f32.mul (local.get $x) (local.get $x)) (f32.mul (local.get $y) (local.get $y)))
              (f32.mul (local.get $z) (local.get $z)))
            (f32.mul (local.get $w) (local.get $w))))
        (local.set $k
          (select (f32.div (f32.const 2) (local.get $n)) (f32.const 0) (f32.gt (local.get $n) (f32.const 0))))
        (local.set $xx (f32.mul (f32.mul (local.get $x) (local.get $x)) (local.get $k)))
        (local.set $yy (f32.mul (f32.mul (local.get $y) (local.get $y)) (local.get $k)))
        (local.set $zz (f32.mul (f32.mul (local.get $z) (local.get $z)) (local.get $k)))
        (local.set $xy (f32.mul (f32.mul (local.get $x) (local.get $y)) (local.get $k)))
        (local.set $xz (f32.mul (f32.mul (local.get $x) (local.get $z)) (local.get $k)))
        (local.set $yz (f32.mul (f32.mul (local.get $y) (local.get $z)) (local.get $k)))
        (local.set $wx (f32.mul (f32.mul (local.get $w) (local.get $x)) (local.get $k)))
        (local.set $wy (f32.mul (f32.mul (local.get $w) (local.get $y)) (local.get $k)))
        (local.set $wz (f32.mul (f32.mul (local.get $w) (local.get $z)) (local.get $k)))
        ;; The local matrix's columns: rotation · scale (row 3 = 0), and the translation (row 3 = 1).
        (local.set $c0
          (f32x4.mul (f32x4.splat (local.get $sx))
            (f32x4.replace_lane 2
              (f32x4.replace_lane 1
                (f32x4.splat (f32.sub (f32.sub (f32.const 1) (local.get $yy)) (local.get $zz)))
                (f32.add (local.get $xy) (local.get $wz)))
              (f32.sub (local.get $xz) (local.get $wy)))))
        (local.set $c1
          (f32x4.mul (f32x4.splat (local.get $sy))
            (f32x4.replace_lane 2
              (f32x4.replace_lane 1
                (f32x4.splat (f32.sub (local.get $xy) (local.get $wz)))
                (f32.sub (f32.sub (f32.const 1) (local.get $xx)) (local.get $zz)))
              (f32.add (local.get $yz) (local.get $wx)))))
        (local.set $c2
          (f32x4.mul (f32x4.splat (local.get $sz))
            (f32x4.replace_lane 2
              (f32x4.replace_lane 1
                (f32x4.splat (f32.add (local.get $xz) (local.get $wy)))
                (f32.sub (local.get $yz) (local.get $wx)))
              (f32.sub (f32.sub (f32.const 1) (local.get $xx)) (local.get $yy)))))
        (local.set $c0 (f32x4.replace_lane 3 (local.get $c0) (f32.const 0)))
        (local.set $c1 (f32x4.replace_lane 3 (local.get $c1) (f32.const 0)))
        (local.set $c2 (f32x4.replace_lane 3 (local.get $c2) (f32.const 0)))
        (local.set $c3 (f32x4.replace_lane 3 (v128.load (local.get $l)) (f32.const 1)))
        (local.set $o (i32.add (local.get $model) (i32.shl (local.get $i) (i32.const 6))))
        (local.set $p (i32.load16_s (i32.add (local.get $parents) (i32.shl (local.get $i) (i32.const 1)))))
        (if (i32.ge_s (local.get $p) (i32.const 0))
          (then
            ;; Column j of model[p] · local = a0 · c_j.x + a1 · c_j.y + a2 · c_j.z (+ a3 for j = 3).
            (local.set $a (i32.add (local.get $model) (i32.shl (local.get $p) (i32.const 6))))
            (local.set $a0 (v128.load offset=0 (local.get $a)))
            (local.set $a1 (v128.load offset=16 (local.get $a)))
            (local.set $a2 (v128.load offset=32 (local.get $a)))
            (local.set $c0 (f32x4.replace_lane 3
              (f32x4.add
                (f32x4.add
                  (f32x4.mul (local.get $a0) (f32x4.splat (f32x4.extract_lane 0 (local.get $c0))))
                  (f32x4.mul (local.get $a1) (f32x4.splat (f32x4.extract_lane 1 (local.get $c0)))))
                (f32x4.mul (local.get $a2) (f32x4.splat (f32x4.extract_lane 2 (local.get $c0)))))
              (f32.const 0)))
            (local.set $c1 (f32x4.replace_lane 3
              (f32x4.add
                (f32x4.add
                  (f32x4.mul (local.get $a0) (f32x4.splat (f32x4.extract_lane 0 (local.get $c1))))
                  (f32x4.mul (local.get $a1) (f32x4.splat (f32x4.extract_lane 1 (local.get $c1)))))
                (f32x4.mul (local.get $a2) (f32x4.splat (f32x4.extract_lane 2 (local.get $c1)))))
              (f32.const 0)))
            (local.set $c2 (f32x4.replace_lane 3
              (f32x4.add
                (f32x4.add
                  (f32x4.mul (local.get $a0) (f32x4.splat (f32x4.extract_lane 0 (local.get $c2))))
                  (f32x4.mul (local.get $a1) (f32x4.splat (f32x4.extract_lane 1 (local.get $c2)))))
                (f32x4.mul (local.get $a2) (f32x4.splat (f32x4.extract_lane 2 (local.get $c2)))))
              (f32.const 0)))
            (local.set $c3 (f32x4.replace_lane 3
              (f32x4.add
                (f32x4.add
                  (f32x4.add
                    (f32x4.mul (local.get $a0) (f32x4.splat (f32x4.extract_lane 0 (local.get $c3))))
                    (f32x4.mul (local.get $a1) (f32x4.splat (f32x4.extract_lane 1 (local.get $c3)))))
                  (f32x4.mul (local.get $a2) (f32x4.splat (f32x4.extract_lane 2 (local.get $c3)))))
                (v128.load offset=48 (local.get $a)))
              (f32.const 1)))))
        (v128.store offset=0 (local.get $o) (local.get $c0))
        (v128.store offset=16 (local.get $o) (local.get $c1))
        (v128.store offset=32 (local.get $o) (local.get $c2))
        (v128.store offset=48 (local.get $o) (local.get $c3))
        (br_if $node
          (i32.lt_s
            (local.tee $i (i32.add (local.get $i) (i32.const 1)))
            (local.get $count)))))))
