; ModuleID = 'LLVMDialectModule'
source_filename = "LLVMDialectModule"

define <16 x i32> @dot_u8s8_acc(<64 x i8> %0, <64 x i8> %1, <16 x i32> %2) {
  %4 = zext <64 x i8> %0 to <64 x i32>
  %5 = sext <64 x i8> %1 to <64 x i32>
  %6 = mul <64 x i32> %4, %5
  %7 = extractelement <64 x i32> %6, i64 0
  %8 = insertelement <16 x i32> poison, i32 %7, i64 0
  %9 = insertvalue [4 x <16 x i32>] poison, <16 x i32> %8, 0
  %10 = extractelement <64 x i32> %6, i64 1
  %11 = extractvalue [4 x <16 x i32>] %9, 1
  %12 = insertelement <16 x i32> %11, i32 %10, i64 0
  %13 = insertvalue [4 x <16 x i32>] %9, <16 x i32> %12, 1
  %14 = extractelement <64 x i32> %6, i64 2
  %15 = extractvalue [4 x <16 x i32>] %13, 2
  %16 = insertelement <16 x i32> %15, i32 %14, i64 0
  %17 = insertvalue [4 x <16 x i32>] %13, <16 x i32> %16, 2
  %18 = extractelement <64 x i32> %6, i64 3
  %19 = extractvalue [4 x <16 x i32>] %17, 3
  %20 = insertelement <16 x i32> %19, i32 %18, i64 0
  %21 = insertvalue [4 x <16 x i32>] %17, <16 x i32> %20, 3
  %22 = extractelement <64 x i32> %6, i64 4
  %23 = extractvalue [4 x <16 x i32>] %21, 0
  %24 = insertelement <16 x i32> %23, i32 %22, i64 1
  %25 = insertvalue [4 x <16 x i32>] %21, <16 x i32> %24, 0
  %26 = extractelement <64 x i32> %6, i64 5
  %27 = extractvalue [4 x <16 x i32>] %25, 1
  %28 = insertelement <16 x i32> %27, i32 %26, i64 1
  %29 = insertvalue [4 x <16 x i32>] %25, <16 x i32> %28, 1
  %30 = extractelement <64 x i32> %6, i64 6
  %31 = extractvalue [4 x <16 x i32>] %29, 2
  %32 = insertelement <16 x i32> %31, i32 %30, i64 1
  %33 = insertvalue [4 x <16 x i32>] %29, <16 x i32> %32, 2
  %34 = extractelement <64 x i32> %6, i64 7
  %35 = extractvalue [4 x <16 x i32>] %33, 3
  %36 = insertelement <16 x i32> %35, i32 %34, i64 1
  %37 = insertvalue [4 x <16 x i32>] %33, <16 x i32> %36, 3
  %38 = extractelement <64 x i32> %6, i64 8
  %39 = extractvalue [4 x <16 x i32>] %37, 0
  %40 = insertelement <16 x i32> %39, i32 %38, i64 2
  %41 = insertvalue [4 x <16 x i32>] %37, <16 x i32> %40, 0
  %42 = extractelement <64 x i32> %6, i64 9
  %43 = extractvalue [4 x <16 x i32>] %41, 1
  %44 = insertelement <16 x i32> %43, i32 %42, i64 2
  %45 = insertvalue [4 x <16 x i32>] %41, <16 x i32> %44, 1
  %46 = extractelement <64 x i32> %6, i64 10
  %47 = extractvalue [4 x <16 x i32>] %45, 2
  %48 = insertelement <16 x i32> %47, i32 %46, i64 2
  %49 = insertvalue [4 x <16 x i32>] %45, <16 x i32> %48, 2
  %50 = extractelement <64 x i32> %6, i64 11
  %51 = extractvalue [4 x <16 x i32>] %49, 3
  %52 = insertelement <16 x i32> %51, i32 %50, i64 2
  %53 = insertvalue [4 x <16 x i32>] %49, <16 x i32> %52, 3
  %54 = extractelement <64 x i32> %6, i64 12
  %55 = extractvalue [4 x <16 x i32>] %53, 0
  %56 = insertelement <16 x i32> %55, i32 %54, i64 3
  %57 = insertvalue [4 x <16 x i32>] %53, <16 x i32> %56, 0
  %58 = extractelement <64 x i32> %6, i64 13
  %59 = extractvalue [4 x <16 x i32>] %57, 1
  %60 = insertelement <16 x i32> %59, i32 %58, i64 3
  %61 = insertvalue [4 x <16 x i32>] %57, <16 x i32> %60, 1
  %62 = extractelement <64 x i32> %6, i64 14
  %63 = extractvalue [4 x <16 x i32>] %61, 2
  %64 = insertelement <16 x i32> %63, i32 %62, i64 3
  %65 = insertvalue [4 x <16 x i32>] %61, <16 x i32> %64, 2
  %66 = extractelement <64 x i32> %6, i64 15
  %67 = extractvalue [4 x <16 x i32>] %65, 3
  %68 = insertelement <16 x i32> %67, i32 %66, i64 3
  %69 = insertvalue [4 x <16 x i32>] %65, <16 x i32> %68, 3
  %70 = extractelement <64 x i32> %6, i64 16
  %71 = extractvalue [4 x <16 x i32>] %69, 0
  %72 = insertelement <16 x i32> %71, i32 %70, i64 4
  %73 = insertvalue [4 x <16 x i32>] %69, <16 x i32> %72, 0
  %74 = extractelement <64 x i32> %6, i64 17
  %75 = extractvalue [4 x <16 x i32>] %73, 1
  %76 = insertelement <16 x i32> %75, i32 %74, i64 4
  %77 = insertvalue [4 x <16 x i32>] %73, <16 x i32> %76, 1
  %78 = extractelement <64 x i32> %6, i64 18
  %79 = extractvalue [4 x <16 x i32>] %77, 2
  %80 = insertelement <16 x i32> %79, i32 %78, i64 4
  %81 = insertvalue [4 x <16 x i32>] %77, <16 x i32> %80, 2
  %82 = extractelement <64 x i32> %6, i64 19
  %83 = extractvalue [4 x <16 x i32>] %81, 3
  %84 = insertelement <16 x i32> %83, i32 %82, i64 4
  %85 = insertvalue [4 x <16 x i32>] %81, <16 x i32> %84, 3
  %86 = extractelement <64 x i32> %6, i64 20
  %87 = extractvalue [4 x <16 x i32>] %85, 0
  %88 = insertelement <16 x i32> %87, i32 %86, i64 5
  %89 = insertvalue [4 x <16 x i32>] %85, <16 x i32> %88, 0
  %90 = extractelement <64 x i32> %6, i64 21
  %91 = extractvalue [4 x <16 x i32>] %89, 1
  %92 = insertelement <16 x i32> %91, i32 %90, i64 5
  %93 = insertvalue [4 x <16 x i32>] %89, <16 x i32> %92, 1
  %94 = extractelement <64 x i32> %6, i64 22
  %95 = extractvalue [4 x <16 x i32>] %93, 2
  %96 = insertelement <16 x i32> %95, i32 %94, i64 5
  %97 = insertvalue [4 x <16 x i32>] %93, <16 x i32> %96, 2
  %98 = extractelement <64 x i32> %6, i64 23
  %99 = extractvalue [4 x <16 x i32>] %97, 3
  %100 = insertelement <16 x i32> %99, i32 %98, i64 5
  %101 = insertvalue [4 x <16 x i32>] %97, <16 x i32> %100, 3
  %102 = extractelement <64 x i32> %6, i64 24
  %103 = extractvalue [4 x <16 x i32>] %101, 0
  %104 = insertelement <16 x i32> %103, i32 %102, i64 6
  %105 = insertvalue [4 x <16 x i32>] %101, <16 x i32> %104, 0
  %106 = extractelement <64 x i32> %6, i64 25
  %107 = extractvalue [4 x <16 x i32>] %105, 1
  %108 = insertelement <16 x i32> %107, i32 %106, i64 6
  %109 = insertvalue [4 x <16 x i32>] %105, <16 x i32> %108, 1
  %110 = extractelement <64 x i32> %6, i64 26
  %111 = extractvalue [4 x <16 x i32>] %109, 2
  %112 = insertelement <16 x i32> %111, i32 %110, i64 6
  %113 = insertvalue [4 x <16 x i32>] %109, <16 x i32> %112, 2
  %114 = extractelement <64 x i32> %6, i64 27
  %115 = extractvalue [4 x <16 x i32>] %113, 3
  %116 = insertelement <16 x i32> %115, i32 %114, i64 6
  %117 = insertvalue [4 x <16 x i32>] %113, <16 x i32> %116, 3
  %118 = extractelement <64 x i32> %6, i64 28
  %119 = extractvalue [4 x <16 x i32>] %117, 0
  %120 = insertelement <16 x i32> %119, i32 %118, i64 7
  %121 = insertvalue [4 x <16 x i32>] %117, <16 x i32> %120, 0
  %122 = extractelement <64 x i32> %6, i64 29
  %123 = extractvalue [4 x <16 x i32>] %121, 1
  %124 = insertelement <16 x i32> %123, i32 %122, i64 7
  %125 = insertvalue [4 x <16 x i32>] %121, <16 x i32> %124, 1
  %126 = extractelement <64 x i32> %6, i64 30
  %127 = extractvalue [4 x <16 x i32>] %125, 2
  %128 = insertelement <16 x i32> %127, i32 %126, i64 7
  %129 = insertvalue [4 x <16 x i32>] %125, <16 x i32> %128, 2
  %130 = extractelement <64 x i32> %6, i64 31
  %131 = extractvalue [4 x <16 x i32>] %129, 3
  %132 = insertelement <16 x i32> %131, i32 %130, i64 7
  %133 = insertvalue [4 x <16 x i32>] %129, <16 x i32> %132, 3
  %134 = extractelement <64 x i32> %6, i64 32
  %135 = extractvalue [4 x <16 x i32>] %133, 0
  %136 = insertelement <16 x i32> %135, i32 %134, i64 8
  %137 = insertvalue [4 x <16 x i32>] %133, <16 x i32> %136, 0
  %138 = extractelement <64 x i32> %6, i64 33
  %139 = extractvalue [4 x <16 x i32>] %137, 1
  %140 = insertelement <16 x i32> %139, i32 %138, i64 8
  %141 = insertvalue [4 x <16 x i32>] %137, <16 x i32> %140, 1
  %142 = extractelement <64 x i32> %6, i64 34
  %143 = extractvalue [4 x <16 x i32>] %141, 2
  %144 = insertelement <16 x i32> %143, i32 %142, i64 8
  %145 = insertvalue [4 x <16 x i32>] %141, <16 x i32> %144, 2
  %146 = extractelement <64 x i32> %6, i64 35
  %147 = extractvalue [4 x <16 x i32>] %145, 3
  %148 = insertelement <16 x i32> %147, i32 %146, i64 8
  %149 = insertvalue [4 x <16 x i32>] %145, <16 x i32> %148, 3
  %150 = extractelement <64 x i32> %6, i64 36
  %151 = extractvalue [4 x <16 x i32>] %149, 0
  %152 = insertelement <16 x i32> %151, i32 %150, i64 9
  %153 = insertvalue [4 x <16 x i32>] %149, <16 x i32> %152, 0
  %154 = extractelement <64 x i32> %6, i64 37
  %155 = extractvalue [4 x <16 x i32>] %153, 1
  %156 = insertelement <16 x i32> %155, i32 %154, i64 9
  %157 = insertvalue [4 x <16 x i32>] %153, <16 x i32> %156, 1
  %158 = extractelement <64 x i32> %6, i64 38
  %159 = extractvalue [4 x <16 x i32>] %157, 2
  %160 = insertelement <16 x i32> %159, i32 %158, i64 9
  %161 = insertvalue [4 x <16 x i32>] %157, <16 x i32> %160, 2
  %162 = extractelement <64 x i32> %6, i64 39
  %163 = extractvalue [4 x <16 x i32>] %161, 3
  %164 = insertelement <16 x i32> %163, i32 %162, i64 9
  %165 = insertvalue [4 x <16 x i32>] %161, <16 x i32> %164, 3
  %166 = extractelement <64 x i32> %6, i64 40
  %167 = extractvalue [4 x <16 x i32>] %165, 0
  %168 = insertelement <16 x i32> %167, i32 %166, i64 10
  %169 = insertvalue [4 x <16 x i32>] %165, <16 x i32> %168, 0
  %170 = extractelement <64 x i32> %6, i64 41
  %171 = extractvalue [4 x <16 x i32>] %169, 1
  %172 = insertelement <16 x i32> %171, i32 %170, i64 10
  %173 = insertvalue [4 x <16 x i32>] %169, <16 x i32> %172, 1
  %174 = extractelement <64 x i32> %6, i64 42
  %175 = extractvalue [4 x <16 x i32>] %173, 2
  %176 = insertelement <16 x i32> %175, i32 %174, i64 10
  %177 = insertvalue [4 x <16 x i32>] %173, <16 x i32> %176, 2
  %178 = extractelement <64 x i32> %6, i64 43
  %179 = extractvalue [4 x <16 x i32>] %177, 3
  %180 = insertelement <16 x i32> %179, i32 %178, i64 10
  %181 = insertvalue [4 x <16 x i32>] %177, <16 x i32> %180, 3
  %182 = extractelement <64 x i32> %6, i64 44
  %183 = extractvalue [4 x <16 x i32>] %181, 0
  %184 = insertelement <16 x i32> %183, i32 %182, i64 11
  %185 = insertvalue [4 x <16 x i32>] %181, <16 x i32> %184, 0
  %186 = extractelement <64 x i32> %6, i64 45
  %187 = extractvalue [4 x <16 x i32>] %185, 1
  %188 = insertelement <16 x i32> %187, i32 %186, i64 11
  %189 = insertvalue [4 x <16 x i32>] %185, <16 x i32> %188, 1
  %190 = extractelement <64 x i32> %6, i64 46
  %191 = extractvalue [4 x <16 x i32>] %189, 2
  %192 = insertelement <16 x i32> %191, i32 %190, i64 11
  %193 = insertvalue [4 x <16 x i32>] %189, <16 x i32> %192, 2
  %194 = extractelement <64 x i32> %6, i64 47
  %195 = extractvalue [4 x <16 x i32>] %193, 3
  %196 = insertelement <16 x i32> %195, i32 %194, i64 11
  %197 = insertvalue [4 x <16 x i32>] %193, <16 x i32> %196, 3
  %198 = extractelement <64 x i32> %6, i64 48
  %199 = extractvalue [4 x <16 x i32>] %197, 0
  %200 = insertelement <16 x i32> %199, i32 %198, i64 12
  %201 = insertvalue [4 x <16 x i32>] %197, <16 x i32> %200, 0
  %202 = extractelement <64 x i32> %6, i64 49
  %203 = extractvalue [4 x <16 x i32>] %201, 1
  %204 = insertelement <16 x i32> %203, i32 %202, i64 12
  %205 = insertvalue [4 x <16 x i32>] %201, <16 x i32> %204, 1
  %206 = extractelement <64 x i32> %6, i64 50
  %207 = extractvalue [4 x <16 x i32>] %205, 2
  %208 = insertelement <16 x i32> %207, i32 %206, i64 12
  %209 = insertvalue [4 x <16 x i32>] %205, <16 x i32> %208, 2
  %210 = extractelement <64 x i32> %6, i64 51
  %211 = extractvalue [4 x <16 x i32>] %209, 3
  %212 = insertelement <16 x i32> %211, i32 %210, i64 12
  %213 = insertvalue [4 x <16 x i32>] %209, <16 x i32> %212, 3
  %214 = extractelement <64 x i32> %6, i64 52
  %215 = extractvalue [4 x <16 x i32>] %213, 0
  %216 = insertelement <16 x i32> %215, i32 %214, i64 13
  %217 = insertvalue [4 x <16 x i32>] %213, <16 x i32> %216, 0
  %218 = extractelement <64 x i32> %6, i64 53
  %219 = extractvalue [4 x <16 x i32>] %217, 1
  %220 = insertelement <16 x i32> %219, i32 %218, i64 13
  %221 = insertvalue [4 x <16 x i32>] %217, <16 x i32> %220, 1
  %222 = extractelement <64 x i32> %6, i64 54
  %223 = extractvalue [4 x <16 x i32>] %221, 2
  %224 = insertelement <16 x i32> %223, i32 %222, i64 13
  %225 = insertvalue [4 x <16 x i32>] %221, <16 x i32> %224, 2
  %226 = extractelement <64 x i32> %6, i64 55
  %227 = extractvalue [4 x <16 x i32>] %225, 3
  %228 = insertelement <16 x i32> %227, i32 %226, i64 13
  %229 = insertvalue [4 x <16 x i32>] %225, <16 x i32> %228, 3
  %230 = extractelement <64 x i32> %6, i64 56
  %231 = extractvalue [4 x <16 x i32>] %229, 0
  %232 = insertelement <16 x i32> %231, i32 %230, i64 14
  %233 = insertvalue [4 x <16 x i32>] %229, <16 x i32> %232, 0
  %234 = extractelement <64 x i32> %6, i64 57
  %235 = extractvalue [4 x <16 x i32>] %233, 1
  %236 = insertelement <16 x i32> %235, i32 %234, i64 14
  %237 = insertvalue [4 x <16 x i32>] %233, <16 x i32> %236, 1
  %238 = extractelement <64 x i32> %6, i64 58
  %239 = extractvalue [4 x <16 x i32>] %237, 2
  %240 = insertelement <16 x i32> %239, i32 %238, i64 14
  %241 = insertvalue [4 x <16 x i32>] %237, <16 x i32> %240, 2
  %242 = extractelement <64 x i32> %6, i64 59
  %243 = extractvalue [4 x <16 x i32>] %241, 3
  %244 = insertelement <16 x i32> %243, i32 %242, i64 14
  %245 = insertvalue [4 x <16 x i32>] %241, <16 x i32> %244, 3
  %246 = extractelement <64 x i32> %6, i64 60
  %247 = extractvalue [4 x <16 x i32>] %245, 0
  %248 = insertelement <16 x i32> %247, i32 %246, i64 15
  %249 = insertvalue [4 x <16 x i32>] %245, <16 x i32> %248, 0
  %250 = extractelement <64 x i32> %6, i64 61
  %251 = extractvalue [4 x <16 x i32>] %249, 1
  %252 = insertelement <16 x i32> %251, i32 %250, i64 15
  %253 = insertvalue [4 x <16 x i32>] %249, <16 x i32> %252, 1
  %254 = extractelement <64 x i32> %6, i64 62
  %255 = extractvalue [4 x <16 x i32>] %253, 2
  %256 = insertelement <16 x i32> %255, i32 %254, i64 15
  %257 = insertvalue [4 x <16 x i32>] %253, <16 x i32> %256, 2
  %258 = extractelement <64 x i32> %6, i64 63
  %259 = extractvalue [4 x <16 x i32>] %257, 3
  %260 = insertelement <16 x i32> %259, i32 %258, i64 15
  %261 = insertvalue [4 x <16 x i32>] %257, <16 x i32> %260, 3
  %262 = extractvalue [4 x <16 x i32>] %261, 0
  %263 = add <16 x i32> %262, %2
  %264 = extractvalue [4 x <16 x i32>] %261, 1
  %265 = add <16 x i32> %264, %263
  %266 = extractvalue [4 x <16 x i32>] %261, 2
  %267 = add <16 x i32> %266, %265
  %268 = extractvalue [4 x <16 x i32>] %261, 3
  %269 = add <16 x i32> %268, %267
  ret <16 x i32> %269
}

define <16 x i32> @madd_i16(<32 x i16> %0, <32 x i16> %1) {
  %3 = sext <32 x i16> %0 to <32 x i32>
  %4 = sext <32 x i16> %1 to <32 x i32>
  %5 = mul <32 x i32> %3, %4
  %6 = extractelement <32 x i32> %5, i64 0
  %7 = insertelement <16 x i32> poison, i32 %6, i64 0
  %8 = insertvalue [2 x <16 x i32>] poison, <16 x i32> %7, 0
  %9 = extractelement <32 x i32> %5, i64 1
  %10 = extractvalue [2 x <16 x i32>] %8, 1
  %11 = insertelement <16 x i32> %10, i32 %9, i64 0
  %12 = insertvalue [2 x <16 x i32>] %8, <16 x i32> %11, 1
  %13 = extractelement <32 x i32> %5, i64 2
  %14 = extractvalue [2 x <16 x i32>] %12, 0
  %15 = insertelement <16 x i32> %14, i32 %13, i64 1
  %16 = insertvalue [2 x <16 x i32>] %12, <16 x i32> %15, 0
  %17 = extractelement <32 x i32> %5, i64 3
  %18 = extractvalue [2 x <16 x i32>] %16, 1
  %19 = insertelement <16 x i32> %18, i32 %17, i64 1
  %20 = insertvalue [2 x <16 x i32>] %16, <16 x i32> %19, 1
  %21 = extractelement <32 x i32> %5, i64 4
  %22 = extractvalue [2 x <16 x i32>] %20, 0
  %23 = insertelement <16 x i32> %22, i32 %21, i64 2
  %24 = insertvalue [2 x <16 x i32>] %20, <16 x i32> %23, 0
  %25 = extractelement <32 x i32> %5, i64 5
  %26 = extractvalue [2 x <16 x i32>] %24, 1
  %27 = insertelement <16 x i32> %26, i32 %25, i64 2
  %28 = insertvalue [2 x <16 x i32>] %24, <16 x i32> %27, 1
  %29 = extractelement <32 x i32> %5, i64 6
  %30 = extractvalue [2 x <16 x i32>] %28, 0
  %31 = insertelement <16 x i32> %30, i32 %29, i64 3
  %32 = insertvalue [2 x <16 x i32>] %28, <16 x i32> %31, 0
  %33 = extractelement <32 x i32> %5, i64 7
  %34 = extractvalue [2 x <16 x i32>] %32, 1
  %35 = insertelement <16 x i32> %34, i32 %33, i64 3
  %36 = insertvalue [2 x <16 x i32>] %32, <16 x i32> %35, 1
  %37 = extractelement <32 x i32> %5, i64 8
  %38 = extractvalue [2 x <16 x i32>] %36, 0
  %39 = insertelement <16 x i32> %38, i32 %37, i64 4
  %40 = insertvalue [2 x <16 x i32>] %36, <16 x i32> %39, 0
  %41 = extractelement <32 x i32> %5, i64 9
  %42 = extractvalue [2 x <16 x i32>] %40, 1
  %43 = insertelement <16 x i32> %42, i32 %41, i64 4
  %44 = insertvalue [2 x <16 x i32>] %40, <16 x i32> %43, 1
  %45 = extractelement <32 x i32> %5, i64 10
  %46 = extractvalue [2 x <16 x i32>] %44, 0
  %47 = insertelement <16 x i32> %46, i32 %45, i64 5
  %48 = insertvalue [2 x <16 x i32>] %44, <16 x i32> %47, 0
  %49 = extractelement <32 x i32> %5, i64 11
  %50 = extractvalue [2 x <16 x i32>] %48, 1
  %51 = insertelement <16 x i32> %50, i32 %49, i64 5
  %52 = insertvalue [2 x <16 x i32>] %48, <16 x i32> %51, 1
  %53 = extractelement <32 x i32> %5, i64 12
  %54 = extractvalue [2 x <16 x i32>] %52, 0
  %55 = insertelement <16 x i32> %54, i32 %53, i64 6
  %56 = insertvalue [2 x <16 x i32>] %52, <16 x i32> %55, 0
  %57 = extractelement <32 x i32> %5, i64 13
  %58 = extractvalue [2 x <16 x i32>] %56, 1
  %59 = insertelement <16 x i32> %58, i32 %57, i64 6
  %60 = insertvalue [2 x <16 x i32>] %56, <16 x i32> %59, 1
  %61 = extractelement <32 x i32> %5, i64 14
  %62 = extractvalue [2 x <16 x i32>] %60, 0
  %63 = insertelement <16 x i32> %62, i32 %61, i64 7
  %64 = insertvalue [2 x <16 x i32>] %60, <16 x i32> %63, 0
  %65 = extractelement <32 x i32> %5, i64 15
  %66 = extractvalue [2 x <16 x i32>] %64, 1
  %67 = insertelement <16 x i32> %66, i32 %65, i64 7
  %68 = insertvalue [2 x <16 x i32>] %64, <16 x i32> %67, 1
  %69 = extractelement <32 x i32> %5, i64 16
  %70 = extractvalue [2 x <16 x i32>] %68, 0
  %71 = insertelement <16 x i32> %70, i32 %69, i64 8
  %72 = insertvalue [2 x <16 x i32>] %68, <16 x i32> %71, 0
  %73 = extractelement <32 x i32> %5, i64 17
  %74 = extractvalue [2 x <16 x i32>] %72, 1
  %75 = insertelement <16 x i32> %74, i32 %73, i64 8
  %76 = insertvalue [2 x <16 x i32>] %72, <16 x i32> %75, 1
  %77 = extractelement <32 x i32> %5, i64 18
  %78 = extractvalue [2 x <16 x i32>] %76, 0
  %79 = insertelement <16 x i32> %78, i32 %77, i64 9
  %80 = insertvalue [2 x <16 x i32>] %76, <16 x i32> %79, 0
  %81 = extractelement <32 x i32> %5, i64 19
  %82 = extractvalue [2 x <16 x i32>] %80, 1
  %83 = insertelement <16 x i32> %82, i32 %81, i64 9
  %84 = insertvalue [2 x <16 x i32>] %80, <16 x i32> %83, 1
  %85 = extractelement <32 x i32> %5, i64 20
  %86 = extractvalue [2 x <16 x i32>] %84, 0
  %87 = insertelement <16 x i32> %86, i32 %85, i64 10
  %88 = insertvalue [2 x <16 x i32>] %84, <16 x i32> %87, 0
  %89 = extractelement <32 x i32> %5, i64 21
  %90 = extractvalue [2 x <16 x i32>] %88, 1
  %91 = insertelement <16 x i32> %90, i32 %89, i64 10
  %92 = insertvalue [2 x <16 x i32>] %88, <16 x i32> %91, 1
  %93 = extractelement <32 x i32> %5, i64 22
  %94 = extractvalue [2 x <16 x i32>] %92, 0
  %95 = insertelement <16 x i32> %94, i32 %93, i64 11
  %96 = insertvalue [2 x <16 x i32>] %92, <16 x i32> %95, 0
  %97 = extractelement <32 x i32> %5, i64 23
  %98 = extractvalue [2 x <16 x i32>] %96, 1
  %99 = insertelement <16 x i32> %98, i32 %97, i64 11
  %100 = insertvalue [2 x <16 x i32>] %96, <16 x i32> %99, 1
  %101 = extractelement <32 x i32> %5, i64 24
  %102 = extractvalue [2 x <16 x i32>] %100, 0
  %103 = insertelement <16 x i32> %102, i32 %101, i64 12
  %104 = insertvalue [2 x <16 x i32>] %100, <16 x i32> %103, 0
  %105 = extractelement <32 x i32> %5, i64 25
  %106 = extractvalue [2 x <16 x i32>] %104, 1
  %107 = insertelement <16 x i32> %106, i32 %105, i64 12
  %108 = insertvalue [2 x <16 x i32>] %104, <16 x i32> %107, 1
  %109 = extractelement <32 x i32> %5, i64 26
  %110 = extractvalue [2 x <16 x i32>] %108, 0
  %111 = insertelement <16 x i32> %110, i32 %109, i64 13
  %112 = insertvalue [2 x <16 x i32>] %108, <16 x i32> %111, 0
  %113 = extractelement <32 x i32> %5, i64 27
  %114 = extractvalue [2 x <16 x i32>] %112, 1
  %115 = insertelement <16 x i32> %114, i32 %113, i64 13
  %116 = insertvalue [2 x <16 x i32>] %112, <16 x i32> %115, 1
  %117 = extractelement <32 x i32> %5, i64 28
  %118 = extractvalue [2 x <16 x i32>] %116, 0
  %119 = insertelement <16 x i32> %118, i32 %117, i64 14
  %120 = insertvalue [2 x <16 x i32>] %116, <16 x i32> %119, 0
  %121 = extractelement <32 x i32> %5, i64 29
  %122 = extractvalue [2 x <16 x i32>] %120, 1
  %123 = insertelement <16 x i32> %122, i32 %121, i64 14
  %124 = insertvalue [2 x <16 x i32>] %120, <16 x i32> %123, 1
  %125 = extractelement <32 x i32> %5, i64 30
  %126 = extractvalue [2 x <16 x i32>] %124, 0
  %127 = insertelement <16 x i32> %126, i32 %125, i64 15
  %128 = insertvalue [2 x <16 x i32>] %124, <16 x i32> %127, 0
  %129 = extractelement <32 x i32> %5, i64 31
  %130 = extractvalue [2 x <16 x i32>] %128, 1
  %131 = insertelement <16 x i32> %130, i32 %129, i64 15
  %132 = insertvalue [2 x <16 x i32>] %128, <16 x i32> %131, 1
  %133 = extractvalue [2 x <16 x i32>] %132, 0
  %134 = extractvalue [2 x <16 x i32>] %132, 1
  %135 = add <16 x i32> %134, %133
  ret <16 x i32> %135
}

define <32 x i16> @adds_i16_clamp(<32 x i16> %0, <32 x i16> %1) {
  %3 = sext <32 x i16> %0 to <32 x i32>
  %4 = sext <32 x i16> %1 to <32 x i32>
  %5 = add <32 x i32> %3, %4
  %6 = call <32 x i32> @llvm.smax.v32i32(<32 x i32> %5, <32 x i32> splat (i32 -32768))
  %7 = call <32 x i32> @llvm.smin.v32i32(<32 x i32> %6, <32 x i32> splat (i32 32767))
  %8 = trunc <32 x i32> %7 to <32 x i16>
  ret <32 x i16> %8
}

define <64 x i8> @subs_u8(<64 x i8> %0, <64 x i8> %1) {
  %3 = zext <64 x i8> %0 to <64 x i16>
  %4 = zext <64 x i8> %1 to <64 x i16>
  %5 = sub <64 x i16> %3, %4
  %6 = call <64 x i16> @llvm.smax.v64i16(<64 x i16> %5, <64 x i16> zeroinitializer)
  %7 = trunc <64 x i16> %6 to <64 x i8>
  ret <64 x i8> %7
}

define <64 x i8> @avg_u8(<64 x i8> %0, <64 x i8> %1) {
  %3 = zext <64 x i8> %0 to <64 x i16>
  %4 = zext <64 x i8> %1 to <64 x i16>
  %5 = add <64 x i16> %3, %4
  %6 = add <64 x i16> %5, splat (i16 1)
  %7 = lshr <64 x i16> %6, splat (i16 1)
  %8 = trunc <64 x i16> %7 to <64 x i8>
  ret <64 x i8> %8
}

define <32 x i16> @mulhi_i16(<32 x i16> %0, <32 x i16> %1) {
  %3 = sext <32 x i16> %0 to <32 x i32>
  %4 = sext <32 x i16> %1 to <32 x i32>
  %5 = mul <32 x i32> %3, %4
  %6 = ashr <32 x i32> %5, splat (i32 16)
  %7 = trunc <32 x i32> %6 to <32 x i16>
  ret <32 x i16> %7
}

define <64 x i8> @absdiff_u8(<64 x i8> %0, <64 x i8> %1) {
  %3 = call <64 x i8> @llvm.umax.v64i8(<64 x i8> %0, <64 x i8> %1)
  %4 = call <64 x i8> @llvm.umin.v64i8(<64 x i8> %0, <64 x i8> %1)
  %5 = sub <64 x i8> %3, %4
  ret <64 x i8> %5
}

define <32 x i16> @clamp_i16(<32 x i16> %0) {
  %2 = call <32 x i16> @llvm.smax.v32i16(<32 x i16> %0, <32 x i16> splat (i16 -100))
  %3 = call <32 x i16> @llvm.smin.v32i16(<32 x i16> %2, <32 x i16> splat (i16 100))
  ret <32 x i16> %3
}

define <32 x i8> @packus_i16(<32 x i16> %0) {
  %2 = call <32 x i16> @llvm.smax.v32i16(<32 x i16> %0, <32 x i16> zeroinitializer)
  %3 = call <32 x i16> @llvm.smin.v32i16(<32 x i16> %2, <32 x i16> splat (i16 255))
  %4 = trunc <32 x i16> %3 to <32 x i8>
  ret <32 x i8> %4
}

define <64 x i8> @interleave_i8(<32 x i8> %0, <32 x i8> %1) {
  %3 = add <32 x i8> %0, splat (i8 1)
  %4 = shufflevector <32 x i8> %3, <32 x i8> %1, <64 x i32> <i32 0, i32 32, i32 1, i32 33, i32 2, i32 34, i32 3, i32 35, i32 4, i32 36, i32 5, i32 37, i32 6, i32 38, i32 7, i32 39, i32 8, i32 40, i32 9, i32 41, i32 10, i32 42, i32 11, i32 43, i32 12, i32 44, i32 13, i32 45, i32 14, i32 46, i32 15, i32 47, i32 16, i32 48, i32 17, i32 49, i32 18, i32 50, i32 19, i32 51, i32 20, i32 52, i32 21, i32 53, i32 22, i32 54, i32 23, i32 55, i32 24, i32 56, i32 25, i32 57, i32 26, i32 58, i32 27, i32 59, i32 28, i32 60, i32 29, i32 61, i32 30, i32 62, i32 31, i32 63>
  ret <64 x i8> %4
}

define <32 x i16> @negative_adds_off_by_one(<32 x i16> %0, <32 x i16> %1) {
  %3 = sext <32 x i16> %0 to <32 x i32>
  %4 = sext <32 x i16> %1 to <32 x i32>
  %5 = add <32 x i32> %3, %4
  %6 = call <32 x i32> @llvm.smax.v32i32(<32 x i32> %5, <32 x i32> splat (i32 -32767))
  %7 = call <32 x i32> @llvm.smin.v32i32(<32 x i32> %6, <32 x i32> splat (i32 32767))
  %8 = trunc <32 x i32> %7 to <32 x i16>
  ret <32 x i16> %8
}

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <32 x i32> @llvm.smax.v32i32(<32 x i32>, <32 x i32>) #0

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <32 x i32> @llvm.smin.v32i32(<32 x i32>, <32 x i32>) #0

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <64 x i16> @llvm.smax.v64i16(<64 x i16>, <64 x i16>) #0

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <64 x i8> @llvm.umax.v64i8(<64 x i8>, <64 x i8>) #0

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <64 x i8> @llvm.umin.v64i8(<64 x i8>, <64 x i8>) #0

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <32 x i16> @llvm.smax.v32i16(<32 x i16>, <32 x i16>) #0

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <32 x i16> @llvm.smin.v32i16(<32 x i16>, <32 x i16>) #0

attributes #0 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0}

!0 = !{i32 2, !"Debug Info Version", i32 3}
