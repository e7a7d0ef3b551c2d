if CommandLine.arguments.dropFirst().first == "decode" {
    DecodeBench.run(arguments: Array(CommandLine.arguments.dropFirst(2)))
} else {
    print("kiln-bench")
}
