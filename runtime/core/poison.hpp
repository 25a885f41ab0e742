// The byte that memory a call must write before it reads it holds when the call starts: the
// outputs (the harness fills them before the checked run) and every rank's scratch (both
// backends fill it when they allocate it). 0xff repeated is NaN in every floating type the
// runtime runs (f16, bf16, f32, f64) and -1 (255 for u8) in the integer types, so a program that
// reads a slot nothing wrote, and reduces or copies it into an output, fails the check where
// zeroed memory would pass a sum. (Not every op exposes it: min over u8, or max over non-negative
// integers, keeps the other operand.)
#pragma once

namespace ccforge::runtime {

inline constexpr unsigned char kPoisonByte = 0xff;

}  // namespace ccforge::runtime
