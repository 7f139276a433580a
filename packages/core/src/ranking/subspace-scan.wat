;; The prefilter's scan (tool-vectors.ts) with WebAssembly SIMD: each tool's 16 int8 subspace
;; coordinates against a view's, four tools per step. The same integer dot products as the
;; JavaScript loop, so the same estimates. Compiled to subspace-scan-wasm.ts by
;; `pnpm --filter @tool-search/core run build-wasm` (the wabt package); never edit that file.
(module
  (memory (export "memory") 1)
  ;; For each tool t < tools (a multiple of 4):
  ;;   estimates[t] = max(estimates[t], Σ_k codes[t][k] × view[k])
  ;; codes: 16 int8 per tool from byte $codes; estimates: one int32 per tool from byte $estimates;
  ;; view: 16 int16 from byte $view. The sums fit int32: |Σ| ≤ 16 × 128 × 127.
  (func (export "scan") (param $codes i32) (param $estimates i32) (param $tools i32) (param $view i32)
    (local $low v128) (local $high v128) (local $end i32) (local $tool v128)
    (local $d0 v128) (local $d1 v128) (local $d2 v128) (local $d3 v128)
    (local $s01 v128) (local $s23 v128)
    (local.set $low (v128.load (local.get $view)))
    (local.set $high (v128.load offset=16 (local.get $view)))
    (local.set $end (i32.add (local.get $codes) (i32.shl (local.get $tools) (i32.const 4))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $codes) (local.get $end)))
        ;; d_i: four partial sums of tool i (coordinates 0–7 widened to int16, then 8–15).
        (local.set $tool (v128.load (local.get $codes)))
        (local.set $d0 (i32x4.add
          (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $tool)) (local.get $low))
          (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $tool)) (local.get $high))))
        (local.set $tool (v128.load offset=16 (local.get $codes)))
        (local.set $d1 (i32x4.add
          (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $tool)) (local.get $low))
          (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $tool)) (local.get $high))))
        (local.set $tool (v128.load offset=32 (local.get $codes)))
        (local.set $d2 (i32x4.add
          (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $tool)) (local.get $low))
          (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $tool)) (local.get $high))))
        (local.set $tool (v128.load offset=48 (local.get $codes)))
        (local.set $d3 (i32x4.add
          (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $tool)) (local.get $low))
          (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $tool)) (local.get $high))))
        ;; Transposed sums: s01 = (d0₀+d0₂, d1₀+d1₂, d0₁+d0₃, d1₁+d1₃), s23 likewise, then
        ;; (s01₀+s01₂, s01₁+s01₃, s23₀+s23₂, s23₁+s23₃) = the four tools' dot products.
        (local.set $s01 (i32x4.add
          (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $d0) (local.get $d1))
          (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $d0) (local.get $d1))))
        (local.set $s23 (i32x4.add
          (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $d2) (local.get $d3))
          (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $d2) (local.get $d3))))
        (v128.store (local.get $estimates)
          (i32x4.max_s (v128.load (local.get $estimates))
            (i32x4.add
              (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $s01) (local.get $s23))
              (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $s01) (local.get $s23)))))
        (local.set $codes (i32.add (local.get $codes) (i32.const 64)))
        (local.set $estimates (i32.add (local.get $estimates) (i32.const 16)))
        (br $next))))
)
