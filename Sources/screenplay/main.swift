print("screenplay")
