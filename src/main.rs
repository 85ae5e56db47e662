/// mimalloc: a report of 400,000 stacks is hundreds of thousands of small names and
/// frames made and freed, which glibc's allocator spends a fifth of the run on.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    hpgraph::cli::main()
}
