print("kiln-demo: the demo arrives with its issue.")
