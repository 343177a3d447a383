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
declare <32 x i32> @llvm.smax.v32i32(<32 x i32>, <32 x i32>) #1

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <32 x i32> @llvm.smin.v32i32(<32 x i32>, <32 x i32>) #1

attributes #0 = { nocallback nofree nosync nounwind willreturn memory(none) }
attributes #1 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0}

!0 = !{i32 2, !"Debug Info Version", i32 3}
