print("kiln-bench")
