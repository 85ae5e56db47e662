fn main() -> std::process::ExitCode {
    hpgraph::cli::main()
}
