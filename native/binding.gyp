{
  "targets": [
    {
      "target_name": "corral_native",
      "sources": ["corral_native.c", "heap.cc"],
      "cflags": ["-Wall", "-Wextra", "-O2"]
    }
  ]
}
