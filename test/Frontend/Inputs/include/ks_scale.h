// A project header found only through -I (test/Frontend/clang-args.test).
#define KS_SCALE_FACTOR 3.0f
