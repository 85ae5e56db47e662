//! `--generate`: the man page and the shells' completion scripts, made from the clap
//! definition of the options (as ripgrep does), so they can never disagree with it.

use std::io::{self, Write};

use clap::CommandFactory;
use clap_complete::Shell;

use super::Args;

/// What `--generate` can print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Generated {
    /// The man page, roff.
    Man,
    /// bash's completion script.
    CompleteBash,
    /// zsh's.
    CompleteZsh,
    /// fish's.
    CompleteFish,
    /// PowerShell's.
    CompletePowershell,
    /// Elvish's.
    CompleteElvish,
}

/// Writes `what` to `out`.
pub fn write(what: Generated, out: &mut dyn Write) -> io::Result<()> {
    let mut cmd = Args::command();
    let shell = match what {
        Generated::Man => return man(cmd, out),
        Generated::CompleteBash => Shell::Bash,
        Generated::CompleteZsh => Shell::Zsh,
        Generated::CompleteFish => Shell::Fish,
        Generated::CompletePowershell => Shell::PowerShell,
        Generated::CompleteElvish => Shell::Elvish,
    };
    clap_complete::generate(shell, &mut cmd, "hpgraph", out);
    Ok(())
}

/// The man page: clap's sections for the options, then what a man page also owes its
/// reader and clap does not know (roff written here).
fn man(cmd: clap::Command, out: &mut dyn Write) -> io::Result<()> {
    // clap_mangen leaves out the aliases `--help` shows (`[alias: --color]`): say them
    // in each option's text, as --help does.
    let cmd = cmd.mut_args(|a| {
        let aliases: Vec<String> = a
            .get_visible_aliases()
            .into_iter()
            .flatten()
            .map(|l| format!("--{l}"))
            .collect();
        if aliases.is_empty() {
            return a;
        }
        let help = a
            .get_long_help()
            .or(a.get_help())
            .map(|h| h.to_string())
            .unwrap_or_default();
        a.long_help(format!("{help}\n\n[alias: {}]", aliases.join(", ")))
    });
    let page = clap_mangen::Man::new(cmd.clone()).section("1");
    page.render_title(out)?;
    // clap's NAME is the whole about text and its SYNOPSIS every flag with one FILE;
    // man(7) wants a short phrase, and the forms a user types.
    out.write_all(NAME_AND_SYNOPSIS.as_bytes())?;
    page.render_description_section(out)?;
    out.write_all(DESCRIPTION.as_bytes())?;
    page.render_options_section(out)?;
    out.write_all(SECTIONS.as_bytes())?;
    page.render_version_section(out)
}

/// NAME and SYNOPSIS, as man-pages(7) lays them out.
const NAME_AND_SYNOPSIS: &str = r#".SH NAME
hpgraph \- draw GHC heap profiles, as hp2ps does and more
.SH SYNOPSIS
.B hpgraph
[\fIOPTIONS\fR] [\fIFILE\fR]...
.br
.B hpgraph
\fB\-\-summary\fR[=\fBtext\fR|\fBjson\fR] [\fIOPTIONS\fR] [\fIFILE\fR]...
.br
.B hpgraph
\fB\-\-watch\fR|\fB\-\-serve\fR[=\fIADDR\fR] [\fIOPTIONS\fR] [\fIFILE\fR | \fB\-\-connect\fR \fIENDPOINT\fR]
.br
.B hpgraph
\fB\-\-compare\fR \fIBEFORE\fR \fIAFTER\fR [\fIOPTIONS\fR]
.br
.B hpgraph
\fB\-\-generate\fR \fIWHAT\fR
"#;

/// More description, after clap's one line.
const DESCRIPTION: &str = r#".PP
hpgraph reads the heap profile a GHC program writes when run with
\fB+RTS \-h\fR (a \fI.hp\fR file) or \fB+RTS \-h \-l\fR (an eventlog), from a
file or standard input, plain or compressed with gzip, zstd or xz (recognised by
content). With hp2ps's options and PostScript output it writes exactly the bytes
hp2ps writes. It also writes EPS, SVG, PDF, PNG and an interactive HTML page,
the numbers as .hp, CSV or JSON, a leak summary, and follows a running program
(\fB\-\-watch\fR, \fB\-\-serve\fR).
"#;

/// The sections after the options.
const SECTIONS: &str = r#".SH "HP2PS OPTION SYNTAX"
hp2ps's options work unchanged. An argument \fB\-xyz\fR is read letter by letter:
\fB\-p\fR is a flag and reading goes on (\fB\-pc\fR is \fB\-p \-c\fR), while every
other letter takes the rest of the argument as its value or ignores it (\fB\-cp\fR
is \fB\-c\fR, \fB\-m5\fR, \fB\-t0.5\fR, \fB\-e8in\fR, \fB\-i\-\fR). \fB\-m\fR alone
is \fB\-m0\fR and \fB\-t\fR alone \fB\-t0\fR. Numbers are read as C's atoi and atof
read them. Unlike hp2ps, options may follow the file, several files are drawn in
turn, and long options are accepted.
.SH EXAMPLES
.TP
\fBhpgraph prog.hp\fR
Write ./prog.ps and ./prog.aux, as hp2ps does.
.TP
\fBhpgraph \-c \-e8in prog\fR
Colour EPS, 8 inches wide, from prog.hp.
.TP
\fBhpgraph \-p prog.hp\fR
Reuse ./prog.aux: the same band order, shades and minimum ranges as last time.
.TP
\fBprog +RTS \-hc \-RTS; hpgraph < prog.hp > heap.ps\fR
A filter: standard input to standard output, no .aux file.
.TP
\fBhpgraph prog.eventlog.zst \-o heap.pdf\fR
A compressed eventlog as a PDF with its font embedded.
.TP
\fBhpgraph \-\-style modern \-\-size 8cmx5cm \-\-font\-size 7 prog.hp \-o fig.pdf\fR
A figure at its printed size for a paper.
.TP
\fBhpgraph \-\-summary prog.hp\fR
Which band is the leak: each band's share, peak, mean and trend.
.TP
\fBhpgraph prog.hp \-o heap.html\fR
One self-contained interactive page: hover for values, hide bands, zoom.
.TP
\fBhpgraph \-\-watch prog.hp \-o heap.svg\fR
Redraw heap.svg while prog runs.
.TP
\fBhpgraph \-\-serve prog.eventlog\fR
The same in a browser: open the address it prints.
.SH "EXIT STATUS"
.TP
\fB0\fR
Everything was written (warnings, such as an unfinished last sample, do not
change this), or \fB\-\-watch\fR / \fB\-\-serve\fR was stopped by SIGINT or SIGTERM.
.TP
\fB1\fR
A profile could not be read or an output could not be written; the message
names the file and the line (or, for an eventlog, the byte). No output file is
left half written. With several files the others are still drawn.
.TP
\fB2\fR
The command line is wrong (unknown option, bad value, conflicting options).
.SH FILES
.TP
\fIFOO.hp\fR, \fIFOO.eventlog\fR
The profile that \fBhpgraph FOO\fR (or \fBFOO.hp\fR, \fBFOO.eventlog\fR) reads;
\fIFOO.hp.gz\fR, \fIFOO.eventlog.zst\fR, \fIFOO.hp.xz\fR are read too.
.TP
\fI./FOO.ps\fR
The picture, in the current folder whatever folder FOO is in (or ./FOO.FORMAT
with \fB\-\-format\fR; \fB\-o\fR names another file).
.TP
\fI./FOO.aux\fR
The band order, shades and ranges of the picture, beside it; \fB\-p\fR reads it
back to draw the next profile the same way.
.SH ENVIRONMENT
.TP
\fBNO_COLOR\fR
When set and not empty, the summary table has no colour even on a terminal.
.TP
\fBHPGRAPH_TIMINGS\fR
When set, each stage's time (and on Linux the peak memory so far) is printed on standard error.
.SH "SEE ALSO"
\fBhp2ps\fR(1), \fBghc\fR(1); the GHC User's Guide, "Profiling memory usage".
"#;

#[cfg(test)]
mod tests {
    #[test]
    fn every_kind_is_written() {
        use clap::ValueEnum;
        for &what in super::Generated::value_variants() {
            let mut out = Vec::new();
            super::write(what, &mut out).unwrap();
            assert!(out.len() > 1000, "{what:?}");
        }
    }
}
