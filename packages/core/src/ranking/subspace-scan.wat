;; The prefilter's scan (tool-vectors.ts) with WebAssembly SIMD: each tool's 16 int8 subspace
;; coordinates against a view's, four tools per step; the rows whose estimates pass a cut, four
;; compared per step. And the exact checks after it: rows of int8 codes against one vector, 16
;; codes per step. The same integer arithmetic as the JavaScript loops, so the same estimates,
;; survivors and cosines. Compiled to subspace-scan-wasm.ts by
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
  ;; The rows t < rows whose estimate is at least $threshold, in ascending order, as int32 from
  ;; byte $out; returns how many. Four estimates compared per step; a step with none above
  ;; writes nothing, and one with some writes its four rows and counts those above.
  (func (export "above") (param $estimates i32) (param $rows i32) (param $threshold i32) (param $out i32) (result i32)
    (local $row i32) (local $found i32) (local $limit v128) (local $mask i32) (local $groups i32)
    (local.set $limit (i32x4.splat (local.get $threshold)))
    (local.set $groups (i32.and (local.get $rows) (i32.const -4)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $row) (local.get $groups)))
        (local.set $mask (i32x4.bitmask (i32x4.ge_s
          (v128.load (i32.add (local.get $estimates) (i32.shl (local.get $row) (i32.const 2))))
          (local.get $limit))))
        (if (local.get $mask)
          (then
            ;; Row i is written at the slot after those above it; only the rows above advance.
            (i32.store (i32.add (local.get $out) (i32.shl (local.get $found) (i32.const 2))) (local.get $row))
            (local.set $found (i32.add (local.get $found) (i32.and (local.get $mask) (i32.const 1))))
            (i32.store (i32.add (local.get $out) (i32.shl (local.get $found) (i32.const 2)))
              (i32.add (local.get $row) (i32.const 1)))
            (local.set $found (i32.add (local.get $found)
              (i32.and (i32.shr_u (local.get $mask) (i32.const 1)) (i32.const 1))))
            (i32.store (i32.add (local.get $out) (i32.shl (local.get $found) (i32.const 2)))
              (i32.add (local.get $row) (i32.const 2)))
            (local.set $found (i32.add (local.get $found)
              (i32.and (i32.shr_u (local.get $mask) (i32.const 2)) (i32.const 1))))
            (i32.store (i32.add (local.get $out) (i32.shl (local.get $found) (i32.const 2)))
              (i32.add (local.get $row) (i32.const 3)))
            (local.set $found (i32.add (local.get $found) (i32.shr_u (local.get $mask) (i32.const 3))))))
        (local.set $row (i32.add (local.get $row) (i32.const 4)))
        (br $next)))
    ;; The last rows one by one (fewer than four).
    (block $tailDone
      (loop $tail
        (br_if $tailDone (i32.ge_u (local.get $row) (local.get $rows)))
        (if (i32.ge_s
              (i32.load (i32.add (local.get $estimates) (i32.shl (local.get $row) (i32.const 2))))
              (local.get $threshold))
          (then
            (i32.store (i32.add (local.get $out) (i32.shl (local.get $found) (i32.const 2))) (local.get $row))
            (local.set $found (i32.add (local.get $found) (i32.const 1)))))
        (local.set $row (i32.add (local.get $row) (i32.const 1)))
        (br $tail)))
    (local.get $found))
  ;; For each row r < rows: out[r] = Σ_k codes[r][k] × vector[k]
  ;; codes: rows of $stride int8 (a multiple of 16) from byte $codes; vector: $stride int16 from
  ;; byte $vector; out: one int32 per row from byte $out. The sums fit int32 for any length the
  ;; callers give: |Σ| ≤ 127 × 127 × $stride.
  (func (export "dots") (param $codes i32) (param $rows i32) (param $stride i32) (param $vector i32) (param $out i32)
    (local $end i32) (local $at i32) (local $rowEnd i32) (local $weights i32) (local $sum v128) (local $chunk v128)
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $rows) (i32.const 2))))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $sum (v128.const i32x4 0 0 0 0))
        (local.set $at (local.get $codes))
        (local.set $rowEnd (i32.add (local.get $codes) (local.get $stride)))
        (local.set $weights (local.get $vector))
        (block $rowDone
          (loop $chunks
            (br_if $rowDone (i32.ge_u (local.get $at) (local.get $rowEnd)))
            (local.set $chunk (v128.load (local.get $at)))
            (local.set $sum (i32x4.add (local.get $sum)
              (i32x4.add
                (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $chunk)) (v128.load (local.get $weights)))
                (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $chunk)) (v128.load offset=16 (local.get $weights))))))
            (local.set $at (i32.add (local.get $at) (i32.const 16)))
            (local.set $weights (i32.add (local.get $weights) (i32.const 32)))
            (br $chunks)))
        (i32.store (local.get $out)
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $sum)) (i32x4.extract_lane 1 (local.get $sum)))
            (i32.add (i32x4.extract_lane 2 (local.get $sum)) (i32x4.extract_lane 3 (local.get $sum)))))
        (local.set $codes (local.get $rowEnd))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br $row))))
)
