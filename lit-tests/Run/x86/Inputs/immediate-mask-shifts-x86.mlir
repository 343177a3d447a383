// AVX-512 mask shifts by an immediate as target ops, at counts within and
// beyond the mask: lowered by convert-hydride-x86-to-llvm in
// immediate-mask-shifts.test.

func.func @kshiftli_mask8_0(%a: vector<8xi8>) -> vector<8xi8> {
  %m = arith.trunci %a : vector<8xi8> to vector<8xi1>
  %k = "hydride_x86.kshiftli_mask8"(%m) {count = 0 : i32} : (vector<8xi1>) -> vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @kshiftli_mask8_3(%a: vector<8xi8>) -> vector<8xi8> {
  %m = arith.trunci %a : vector<8xi8> to vector<8xi1>
  %k = "hydride_x86.kshiftli_mask8"(%m) {count = 3 : i32} : (vector<8xi1>) -> vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @kshiftli_mask8_7(%a: vector<8xi8>) -> vector<8xi8> {
  %m = arith.trunci %a : vector<8xi8> to vector<8xi1>
  %k = "hydride_x86.kshiftli_mask8"(%m) {count = 7 : i32} : (vector<8xi1>) -> vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @kshiftli_mask8_8(%a: vector<8xi8>) -> vector<8xi8> {
  %m = arith.trunci %a : vector<8xi8> to vector<8xi1>
  %k = "hydride_x86.kshiftli_mask8"(%m) {count = 8 : i32} : (vector<8xi1>) -> vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @kshiftli_mask8_255(%a: vector<8xi8>) -> vector<8xi8> {
  %m = arith.trunci %a : vector<8xi8> to vector<8xi1>
  %k = "hydride_x86.kshiftli_mask8"(%m) {count = 255 : i32} : (vector<8xi1>) -> vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @kshiftli_mask16_1(%a: vector<16xi8>) -> vector<16xi8> {
  %m = arith.trunci %a : vector<16xi8> to vector<16xi1>
  %k = "hydride_x86.kshiftli_mask16"(%m) {count = 1 : i32} : (vector<16xi1>) -> vector<16xi1>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}

func.func @kshiftli_mask16_7(%a: vector<16xi8>) -> vector<16xi8> {
  %m = arith.trunci %a : vector<16xi8> to vector<16xi1>
  %k = "hydride_x86.kshiftli_mask16"(%m) {count = 7 : i32} : (vector<16xi1>) -> vector<16xi1>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}

func.func @kshiftli_mask16_15(%a: vector<16xi8>) -> vector<16xi8> {
  %m = arith.trunci %a : vector<16xi8> to vector<16xi1>
  %k = "hydride_x86.kshiftli_mask16"(%m) {count = 15 : i32} : (vector<16xi1>) -> vector<16xi1>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}

func.func @kshiftli_mask16_16(%a: vector<16xi8>) -> vector<16xi8> {
  %m = arith.trunci %a : vector<16xi8> to vector<16xi1>
  %k = "hydride_x86.kshiftli_mask16"(%m) {count = 16 : i32} : (vector<16xi1>) -> vector<16xi1>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}

func.func @kshiftli_mask16_40(%a: vector<16xi8>) -> vector<16xi8> {
  %m = arith.trunci %a : vector<16xi8> to vector<16xi1>
  %k = "hydride_x86.kshiftli_mask16"(%m) {count = 40 : i32} : (vector<16xi1>) -> vector<16xi1>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}

func.func @kshiftli_mask32_5(%a: vector<32xi8>) -> vector<32xi8> {
  %m = arith.trunci %a : vector<32xi8> to vector<32xi1>
  %k = "hydride_x86.kshiftli_mask32"(%m) {count = 5 : i32} : (vector<32xi1>) -> vector<32xi1>
  %r = arith.extui %k : vector<32xi1> to vector<32xi8>
  return %r : vector<32xi8>
}

func.func @kshiftli_mask32_31(%a: vector<32xi8>) -> vector<32xi8> {
  %m = arith.trunci %a : vector<32xi8> to vector<32xi1>
  %k = "hydride_x86.kshiftli_mask32"(%m) {count = 31 : i32} : (vector<32xi1>) -> vector<32xi1>
  %r = arith.extui %k : vector<32xi1> to vector<32xi8>
  return %r : vector<32xi8>
}

func.func @kshiftli_mask32_32(%a: vector<32xi8>) -> vector<32xi8> {
  %m = arith.trunci %a : vector<32xi8> to vector<32xi1>
  %k = "hydride_x86.kshiftli_mask32"(%m) {count = 32 : i32} : (vector<32xi1>) -> vector<32xi1>
  %r = arith.extui %k : vector<32xi1> to vector<32xi8>
  return %r : vector<32xi8>
}

func.func @kshiftli_mask64_13(%a: vector<64xi8>) -> vector<64xi8> {
  %m = arith.trunci %a : vector<64xi8> to vector<64xi1>
  %k = "hydride_x86.kshiftli_mask64"(%m) {count = 13 : i32} : (vector<64xi1>) -> vector<64xi1>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @kshiftli_mask64_63(%a: vector<64xi8>) -> vector<64xi8> {
  %m = arith.trunci %a : vector<64xi8> to vector<64xi1>
  %k = "hydride_x86.kshiftli_mask64"(%m) {count = 63 : i32} : (vector<64xi1>) -> vector<64xi1>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @kshiftli_mask64_64(%a: vector<64xi8>) -> vector<64xi8> {
  %m = arith.trunci %a : vector<64xi8> to vector<64xi1>
  %k = "hydride_x86.kshiftli_mask64"(%m) {count = 64 : i32} : (vector<64xi1>) -> vector<64xi1>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @kshiftli_mask64_255(%a: vector<64xi8>) -> vector<64xi8> {
  %m = arith.trunci %a : vector<64xi8> to vector<64xi1>
  %k = "hydride_x86.kshiftli_mask64"(%m) {count = 255 : i32} : (vector<64xi1>) -> vector<64xi1>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @kshiftri_mask8_2(%a: vector<8xi8>) -> vector<8xi8> {
  %m = arith.trunci %a : vector<8xi8> to vector<8xi1>
  %k = "hydride_x86.kshiftri_mask8"(%m) {count = 2 : i32} : (vector<8xi1>) -> vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @kshiftri_mask8_7(%a: vector<8xi8>) -> vector<8xi8> {
  %m = arith.trunci %a : vector<8xi8> to vector<8xi1>
  %k = "hydride_x86.kshiftri_mask8"(%m) {count = 7 : i32} : (vector<8xi1>) -> vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @kshiftri_mask8_8(%a: vector<8xi8>) -> vector<8xi8> {
  %m = arith.trunci %a : vector<8xi8> to vector<8xi1>
  %k = "hydride_x86.kshiftri_mask8"(%m) {count = 8 : i32} : (vector<8xi1>) -> vector<8xi1>
  %r = arith.extui %k : vector<8xi1> to vector<8xi8>
  return %r : vector<8xi8>
}

func.func @kshiftri_mask16_9(%a: vector<16xi8>) -> vector<16xi8> {
  %m = arith.trunci %a : vector<16xi8> to vector<16xi1>
  %k = "hydride_x86.kshiftri_mask16"(%m) {count = 9 : i32} : (vector<16xi1>) -> vector<16xi1>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}

func.func @kshiftri_mask16_15(%a: vector<16xi8>) -> vector<16xi8> {
  %m = arith.trunci %a : vector<16xi8> to vector<16xi1>
  %k = "hydride_x86.kshiftri_mask16"(%m) {count = 15 : i32} : (vector<16xi1>) -> vector<16xi1>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}

func.func @kshiftri_mask16_16(%a: vector<16xi8>) -> vector<16xi8> {
  %m = arith.trunci %a : vector<16xi8> to vector<16xi1>
  %k = "hydride_x86.kshiftri_mask16"(%m) {count = 16 : i32} : (vector<16xi1>) -> vector<16xi1>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}

func.func @kshiftri_mask16_100(%a: vector<16xi8>) -> vector<16xi8> {
  %m = arith.trunci %a : vector<16xi8> to vector<16xi1>
  %k = "hydride_x86.kshiftri_mask16"(%m) {count = 100 : i32} : (vector<16xi1>) -> vector<16xi1>
  %r = arith.extui %k : vector<16xi1> to vector<16xi8>
  return %r : vector<16xi8>
}

func.func @kshiftri_mask32_1(%a: vector<32xi8>) -> vector<32xi8> {
  %m = arith.trunci %a : vector<32xi8> to vector<32xi1>
  %k = "hydride_x86.kshiftri_mask32"(%m) {count = 1 : i32} : (vector<32xi1>) -> vector<32xi1>
  %r = arith.extui %k : vector<32xi1> to vector<32xi8>
  return %r : vector<32xi8>
}

func.func @kshiftri_mask32_17(%a: vector<32xi8>) -> vector<32xi8> {
  %m = arith.trunci %a : vector<32xi8> to vector<32xi1>
  %k = "hydride_x86.kshiftri_mask32"(%m) {count = 17 : i32} : (vector<32xi1>) -> vector<32xi1>
  %r = arith.extui %k : vector<32xi1> to vector<32xi8>
  return %r : vector<32xi8>
}

func.func @kshiftri_mask32_31(%a: vector<32xi8>) -> vector<32xi8> {
  %m = arith.trunci %a : vector<32xi8> to vector<32xi1>
  %k = "hydride_x86.kshiftri_mask32"(%m) {count = 31 : i32} : (vector<32xi1>) -> vector<32xi1>
  %r = arith.extui %k : vector<32xi1> to vector<32xi8>
  return %r : vector<32xi8>
}

func.func @kshiftri_mask32_32(%a: vector<32xi8>) -> vector<32xi8> {
  %m = arith.trunci %a : vector<32xi8> to vector<32xi1>
  %k = "hydride_x86.kshiftri_mask32"(%m) {count = 32 : i32} : (vector<32xi1>) -> vector<32xi1>
  %r = arith.extui %k : vector<32xi1> to vector<32xi8>
  return %r : vector<32xi8>
}

func.func @kshiftri_mask32_255(%a: vector<32xi8>) -> vector<32xi8> {
  %m = arith.trunci %a : vector<32xi8> to vector<32xi1>
  %k = "hydride_x86.kshiftri_mask32"(%m) {count = 255 : i32} : (vector<32xi1>) -> vector<32xi1>
  %r = arith.extui %k : vector<32xi1> to vector<32xi8>
  return %r : vector<32xi8>
}

func.func @kshiftri_mask64_0(%a: vector<64xi8>) -> vector<64xi8> {
  %m = arith.trunci %a : vector<64xi8> to vector<64xi1>
  %k = "hydride_x86.kshiftri_mask64"(%m) {count = 0 : i32} : (vector<64xi1>) -> vector<64xi1>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @kshiftri_mask64_1(%a: vector<64xi8>) -> vector<64xi8> {
  %m = arith.trunci %a : vector<64xi8> to vector<64xi1>
  %k = "hydride_x86.kshiftri_mask64"(%m) {count = 1 : i32} : (vector<64xi1>) -> vector<64xi1>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @kshiftri_mask64_33(%a: vector<64xi8>) -> vector<64xi8> {
  %m = arith.trunci %a : vector<64xi8> to vector<64xi1>
  %k = "hydride_x86.kshiftri_mask64"(%m) {count = 33 : i32} : (vector<64xi1>) -> vector<64xi1>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @kshiftri_mask64_63(%a: vector<64xi8>) -> vector<64xi8> {
  %m = arith.trunci %a : vector<64xi8> to vector<64xi1>
  %k = "hydride_x86.kshiftri_mask64"(%m) {count = 63 : i32} : (vector<64xi1>) -> vector<64xi1>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @kshiftri_mask64_64(%a: vector<64xi8>) -> vector<64xi8> {
  %m = arith.trunci %a : vector<64xi8> to vector<64xi1>
  %k = "hydride_x86.kshiftri_mask64"(%m) {count = 64 : i32} : (vector<64xi1>) -> vector<64xi1>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}

func.func @kshiftri_mask64_200(%a: vector<64xi8>) -> vector<64xi8> {
  %m = arith.trunci %a : vector<64xi8> to vector<64xi1>
  %k = "hydride_x86.kshiftri_mask64"(%m) {count = 200 : i32} : (vector<64xi1>) -> vector<64xi1>
  %r = arith.extui %k : vector<64xi1> to vector<64xi8>
  return %r : vector<64xi8>
}
