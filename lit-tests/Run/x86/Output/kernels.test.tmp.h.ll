; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"

define <16 x i32> @hydride_dot_u8s8_acc(<64 x i8> %0, <64 x i8> %1, <16 x i32> %2) {
  %4 = call <16 x i32> @llvm.x86.avx512.vpdpbusd.512(<16 x i32> %2, <64 x i8> %0, <64 x i8> %1)
  ret <16 x i32> %4
}

define <16 x i32> @hydride_madd_i16(<32 x i16> %0, <32 x i16> %1) {
  %3 = call <16 x i32> @llvm.x86.avx512.pmaddw.d.512(<32 x i16> %0, <32 x i16> %1)
  ret <16 x i32> %3
}

define <32 x i16> @hydride_adds_i16_clamp(<32 x i16> %0, <32 x i16> %1) {
  %3 = call <32 x i16> @llvm.sadd.sat.v32i16(<32 x i16> %0, <32 x i16> %1)
  ret <32 x i16> %3
}

define <64 x i8> @hydride_subs_u8(<64 x i8> %0, <64 x i8> %1) {
  %3 = call <64 x i8> @llvm.usub.sat.v64i8(<64 x i8> %0, <64 x i8> %1)
  ret <64 x i8> %3
}

define <64 x i8> @hydride_avg_u8(<64 x i8> %0, <64 x i8> %1) {
  %3 = call <64 x i8> @llvm.x86.avx512.pavg.b.512(<64 x i8> %0, <64 x i8> %1)
  ret <64 x i8> %3
}

define <32 x i16> @hydride_mulhi_i16(<32 x i16> %0, <32 x i16> %1) {
  %3 = call <32 x i16> @llvm.x86.avx512.pmulh.w.512(<32 x i16> %0, <32 x i16> %1)
  ret <32 x i16> %3
}

define <64 x i8> @hydride_absdiff_u8(<64 x i8> %0, <64 x i8> %1) {
  %3 = call <64 x i8> @llvm.umax.v64i8(<64 x i8> %0, <64 x i8> %1)
  %4 = call <64 x i8> @llvm.umin.v64i8(<64 x i8> %0, <64 x i8> %1)
  %5 = sub <64 x i8> %3, %4
  ret <64 x i8> %5
}

define <32 x i16> @hydride_clamp_i16(<32 x i16> %0) {
  %2 = call <32 x i16> @llvm.smax.v32i16(<32 x i16> %0, <32 x i16> splat (i16 -100))
  %3 = call <32 x i16> @llvm.smin.v32i16(<32 x i16> %2, <32 x i16> splat (i16 100))
  ret <32 x i16> %3
}

define <32 x i8> @hydride_packus_i16(<32 x i16> %0) {
  %2 = call <32 x i16> @llvm.smax.v32i16(<32 x i16> %0, <32 x i16> zeroinitializer)
  %3 = call <32 x i16> @llvm.smin.v32i16(<32 x i16> %2, <32 x i16> splat (i16 255))
  %4 = trunc <32 x i16> %3 to <32 x i8>
  ret <32 x i8> %4
}

define <64 x i8> @hydride_interleave_i8(<32 x i8> %0, <32 x i8> %1) {
  %3 = add <32 x i8> %0, splat (i8 1)
  %4 = shufflevector <32 x i8> %3, <32 x i8> %1, <64 x i32> <i32 0, i32 32, i32 1, i32 33, i32 2, i32 34, i32 3, i32 35, i32 4, i32 36, i32 5, i32 37, i32 6, i32 38, i32 7, i32 39, i32 8, i32 40, i32 9, i32 41, i32 10, i32 42, i32 11, i32 43, i32 12, i32 44, i32 13, i32 45, i32 14, i32 46, i32 15, i32 47, i32 16, i32 48, i32 17, i32 49, i32 18, i32 50, i32 19, i32 51, i32 20, i32 52, i32 21, i32 53, i32 22, i32 54, i32 23, i32 55, i32 24, i32 56, i32 25, i32 57, i32 26, i32 58, i32 27, i32 59, i32 28, i32 60, i32 29, i32 61, i32 30, i32 62, i32 31, i32 63>
  ret <64 x i8> %4
}

define <32 x i16> @hydride_negative_adds_off_by_one(<32 x i16> %0, <32 x i16> %1) {
  %3 = sext <32 x i16> %0 to <32 x i32>
  %4 = sext <32 x i16> %1 to <32 x i32>
  %5 = add <32 x i32> %3, %4
  %6 = call <32 x i32> @llvm.smax.v32i32(<32 x i32> %5, <32 x i32> splat (i32 -32767))
  %7 = call <32 x i32> @llvm.smin.v32i32(<32 x i32> %6, <32 x i32> splat (i32 32767))
  %8 = trunc <32 x i32> %7 to <32 x i16>
  ret <32 x i16> %8
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(none)
declare <16 x i32> @llvm.x86.avx512.vpdpbusd.512(<16 x i32>, <64 x i8>, <64 x i8>) #0

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(none)
declare <16 x i32> @llvm.x86.avx512.pmaddw.d.512(<32 x i16>, <32 x i16>) #0

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <32 x i16> @llvm.sadd.sat.v32i16(<32 x i16>, <32 x i16>) #1

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <64 x i8> @llvm.usub.sat.v64i8(<64 x i8>, <64 x i8>) #1

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(none)
declare <64 x i8> @llvm.x86.avx512.pavg.b.512(<64 x i8>, <64 x i8>) #0

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(none)
declare <32 x i16> @llvm.x86.avx512.pmulh.w.512(<32 x i16>, <32 x i16>) #0

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <64 x i8> @llvm.umax.v64i8(<64 x i8>, <64 x i8>) #1

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <64 x i8> @llvm.umin.v64i8(<64 x i8>, <64 x i8>) #1

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <32 x i16> @llvm.smax.v32i16(<32 x i16>, <32 x i16>) #1

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <32 x i16> @llvm.smin.v32i16(<32 x i16>, <32 x i16>) #1

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <32 x i32> @llvm.smax.v32i32(<32 x i32>, <32 x i32>) #1

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <32 x i32> @llvm.smin.v32i32(<32 x i32>, <32 x i32>) #1

attributes #0 = { nocallback nofree nosync nounwind willreturn memory(none) }
attributes #1 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0}

!0 = !{i32 2, !"Debug Info Version", i32 3}
