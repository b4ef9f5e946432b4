{
  "targets": [
    {
      "target_name": "corral_native",
      "sources": ["corral_native.c"],
      "cflags": ["-Wall", "-Wextra", "-O2"]
    }
  ]
}
