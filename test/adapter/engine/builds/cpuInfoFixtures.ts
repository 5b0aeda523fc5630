/** /proc/cpuinfo texts of three kinds of CPU, for the tests of CPU-dependent build choices. */

/** Two processors of a Sapphire Rapids machine, flags shortened to the relevant ones. */
export const XEON_WITH_AMX = `processor\t: 0
vendor_id\t: GenuineIntel
model name\t: Intel(R) Xeon(R) Platinum 8488C
flags\t\t: fpu sse4_2 avx f16c fma bmi2 avx2 avx512f avx512bw avx512vl avx512_vnni avx512_bf16 amx_bf16 avx512_fp16 amx_tile amx_int8

processor\t: 1
vendor_id\t: GenuineIntel
model name\t: Intel(R) Xeon(R) Platinum 8488C
flags\t\t: fpu sse4_2 avx f16c fma bmi2 avx2 avx512f avx512bw avx512vl avx512_vnni avx512_bf16 amx_bf16 avx512_fp16 amx_tile amx_int8
`;

export const EPYC = `processor\t: 0
vendor_id\t: AuthenticAMD
model name\t: AMD EPYC 7B13
flags\t\t: fpu sse4_2 avx f16c fma bmi2 avx2
`;

export const GRAVITON = `processor\t: 0
BogoMIPS\t: 243.75
Features\t: fp asimd evtstrm aes sve
CPU implementer\t: 0x41
`;
