//! How a test program is executed: natively, or under a user-mode emulator
//! that an ISA names.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Runner {
    Native,
    Emulated { program: PathBuf, args: Vec<String> },
}

impl Runner {
    pub fn describe(&self) -> String {
        match self {
            Runner::Native => "this CPU".into(),
            Runner::Emulated { program, args } => format!("{} {}", program.display(), args.join(" ")),
        }
    }

    /// Whether the emulator can be started.
    pub fn available(&self) -> bool {
        match self {
            Runner::Native => true,
            Runner::Emulated { program, .. } => {
                Command::new(program).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok()
            }
        }
    }

    /// Runs `exe` with `input` on stdin; its exit status and stdout.
    pub fn run(&self, exe: &Path, input: &[u8]) -> std::io::Result<(ExitStatus, Vec<u8>)> {
        let mut cmd = match self {
            Runner::Native => Command::new(exe),
            Runner::Emulated { program, args } => {
                let mut c = Command::new(program);
                c.args(args).arg(exe);
                c
            }
        };
        let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn()?;
        let mut stdin = child.stdin.take().expect("piped stdin");
        let data = input.to_vec();
        // A writer thread: the program's output may fill its pipe before it has read all input.
        let writer = std::thread::spawn(move || stdin.write_all(&data));
        let out = child.wait_with_output()?;
        let _ = writer.join();
        Ok((out.status, out.stdout))
    }
}
