print("kiln: the generator arrives with its issue.")
