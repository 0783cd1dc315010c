//! `warp9`: the command-line face of the crate.
//!
//! - `warp9 caps --level L [--json]` and `warp9 caps --diff L1 L2`: the caps viewer.
//! - `warp9 create --levels ... --drivers ... [--json]`: device creation as an application does it.
//! - `warp9 disasm FILE`, `warp9 asm FILE [-o OUT]`, `warp9 validate FILE [--level L]`: the shader toolchain.
//!
//! Bad arguments print a clear message and exit non-zero; nothing panics.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Writes a line to stdout; a closed pipe (`warp9 caps | head`) ends the command quietly.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stdout().lock(), $($arg)*).is_err() {
            return Ok(());
        }
    }};
}

/// Writes text to stdout without a newline; a closed pipe ends the command quietly.
macro_rules! out_raw {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if write!(std::io::stdout().lock(), $($arg)*).is_err() {
            return Ok(());
        }
    }};
}
use warp9::{Caps, Device, DeviceDesc, DriverType, FeatureLevel, VertexProcessing};

#[derive(Parser)]
#[command(
    name = "warp9",
    version,
    about = "A Direct3D 9-class renderer on the CPU: caps, device creation and shader tools"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the D3DCAPS9 a device at a feature level reports.
    Caps {
        /// Feature level: 9_1, 9_2, 9_3 or sm3.
        #[arg(long, required_unless_present = "diff")]
        level: Option<String>,
        /// Print one JSON object with every member under its D3D9 name.
        #[arg(long)]
        json: bool,
        /// Show the members that differ between two levels.
        #[arg(long, num_args = 2, value_names = ["L1", "L2"], conflicts_with = "level")]
        diff: Option<Vec<String>>,
    },
    /// Create a device as an application would (drivers outer, levels inner) and print what it got.
    Create {
        /// Feature levels to try, in order, comma-separated (e.g. 11_0,10_1,10_0,9_3,9_2,9_1).
        #[arg(long, value_delimiter = ',')]
        levels: Vec<String>,
        /// Driver types to try, in order, comma-separated (hardware, warp, reference).
        #[arg(long, value_delimiter = ',')]
        drivers: Vec<String>,
        /// Vertex processing: hardware, software or mixed.
        #[arg(long, default_value = "hardware")]
        vertex_processing: String,
        /// Print `{"driver": ..., "level": ...}`.
        #[arg(long)]
        json: bool,
    },
    /// Disassemble shader bytecode (a binary file of little-endian DWORDs) in fxc's listing syntax.
    Disasm {
        /// The bytecode file (`-`: standard input).
        file: PathBuf,
    },
    /// Assemble fxc-syntax shader text into bytecode.
    Asm {
        /// The assembly text file (`-`: standard input).
        file: PathBuf,
        /// Where to write the bytecode (default: FILE with extension .bin; `-`: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Validate shader bytecode against a level's caps and print what it uses.
    Validate {
        /// The bytecode file (`-`: standard input).
        file: PathBuf,
        /// Feature level to validate against (default: the lowest that accepts it).
        #[arg(long)]
        level: Option<String>,
        /// Validate vertex shaders against the software vertex-processing caps (vs_3_0, 8192 constants).
        #[arg(long)]
        software_vp: bool,
    },
}

fn parse_level(s: &str) -> Result<FeatureLevel, String> {
    s.parse::<FeatureLevel>()
        .map_err(|e| e.message().to_string())
}

fn caps_for(s: &str) -> Result<Caps, String> {
    let level = parse_level(s)?;
    Caps::for_level(level).ok_or_else(|| {
        format!("feature level {level} is a known name, but no warp9 driver supports it (levels: 9_1, 9_2, 9_3, sm3)")
    })
}

/// The bytes of `file`, or of standard input for `-`.
fn read_input(file: &PathBuf) -> Result<Vec<u8>, String> {
    if file.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        return Ok(bytes);
    }
    std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))
}

fn read_tokens(file: &PathBuf) -> Result<Vec<u32>, String> {
    let bytes = read_input(file)?;
    if bytes.len() % 4 != 0 {
        return Err(format!(
            "{}: {} bytes is not a whole number of DWORDs",
            file.display(),
            bytes.len()
        ));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Caps { level, json, diff } => {
            if let Some(pair) = diff {
                let (a, b) = (caps_for(&pair[0])?, caps_for(&pair[1])?);
                let rows = a.diff(&b);
                if json {
                    let obj: serde_json::Map<String, serde_json::Value> = rows
                        .iter()
                        .map(|(n, x, y)| {
                            (n.to_string(), serde_json::json!([x.to_json(), y.to_json()]))
                        })
                        .collect();
                    out!("{}", serde_json::Value::Object(obj));
                } else {
                    out!(
                        "{} members differ between {} and {}:",
                        rows.len(),
                        pair[0],
                        pair[1]
                    );
                    for (name, x, y) in rows {
                        out!("  {name:<36} {x}  ->  {y}");
                    }
                }
                return Ok(());
            }
            let name = level.unwrap_or_default();
            let caps = caps_for(&name)?;
            if json {
                out!("{}", caps.to_json());
            } else {
                out!("D3DCAPS9 at level {name} (69 members):");
                for m in caps.members() {
                    out!("  {:<36} {}", m.name, m.value);
                }
            }
            Ok(())
        }
        Command::Create {
            levels,
            drivers,
            vertex_processing,
            json,
        } => {
            let levels = levels
                .iter()
                .map(|l| parse_level(l))
                .collect::<Result<Vec<_>, _>>()?;
            let drivers = drivers
                .iter()
                .map(|d| d.parse::<DriverType>().map_err(|e| e.message().to_string()))
                .collect::<Result<Vec<_>, _>>()?;
            let vertex_processing = match vertex_processing.to_ascii_lowercase().as_str() {
                "hardware" => VertexProcessing::Hardware,
                "software" => VertexProcessing::Software,
                "mixed" => VertexProcessing::Mixed,
                other => {
                    return Err(format!(
                        "unknown vertex processing {other:?} (hardware, software, mixed)"
                    ));
                }
            };
            let device = Device::create(&DeviceDesc {
                drivers: &drivers,
                levels: &levels,
                vertex_processing,
                ..DeviceDesc::default()
            })
            .map_err(|e| format!("device creation failed: {e}"))?;
            if json {
                out!(
                    "{}",
                    serde_json::json!({"driver": device.driver_type().name(), "level": device.feature_level().name()})
                );
            } else {
                out!(
                    "created a {} device at feature level {} ({} threads, SIMD {:?})",
                    device.driver_type(),
                    device.feature_level(),
                    device.thread_count(),
                    device.simd_backend()
                );
            }
            Ok(())
        }
        Command::Disasm { file } => {
            let tokens = read_tokens(&file)?;
            let program =
                warp9::shader::decode(&tokens).map_err(|e| format!("{}: {e}", file.display()))?;
            let text = program.disassemble();
            out_raw!("{text}");
            if !text.ends_with('\n') {
                out!();
            }
            Ok(())
        }
        Command::Asm { file, output } => {
            let text = String::from_utf8(read_input(&file)?)
                .map_err(|_| format!("{}: not UTF-8 text", file.display()))?;
            let tokens =
                warp9::shader::assemble(&text).map_err(|e| format!("{}: {e}", file.display()))?;
            let bytes: Vec<u8> = tokens.iter().flat_map(|t| t.to_le_bytes()).collect();
            let stdin_input = file.as_os_str() == "-";
            let out = output.unwrap_or_else(|| {
                if stdin_input {
                    PathBuf::from("-")
                } else {
                    file.with_extension("bin")
                }
            });
            if out.as_os_str() == "-" {
                use std::io::Write as _;
                return std::io::stdout()
                    .lock()
                    .write_all(&bytes)
                    .map_err(|e| format!("cannot write standard output: {e}"));
            }
            std::fs::write(&out, bytes)
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            out!("{}: {} DWORDs", out.display(), tokens.len());
            Ok(())
        }
        Command::Validate {
            file,
            level,
            software_vp,
        } => {
            let tokens = read_tokens(&file)?;
            let program =
                warp9::shader::decode(&tokens).map_err(|e| format!("{}: {e}", file.display()))?;
            let levels = match level {
                Some(l) => vec![parse_level(&l)?],
                None => FeatureLevel::SUPPORTED.to_vec(),
            };
            let mut last = String::new();
            for l in levels {
                let Some(caps) = Caps::for_level(l) else {
                    return Err(format!("no driver supports level {l}"));
                };
                let caps = if software_vp {
                    caps.with_software_vertex_processing()
                } else {
                    caps
                };
                match warp9::shader::validate(&program, &caps.shader_limits(l, software_vp)) {
                    Ok(info) => {
                        out!(
                            "valid at level {l}{}",
                            if software_vp {
                                " (software vertex processing)"
                            } else {
                                ""
                            }
                        );
                        out!("{info:#?}");
                        return Ok(());
                    }
                    Err(e) => last = format!("invalid at level {l}: {e}"),
                }
            }
            Err(last)
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with success; real errors exit 2.
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("warp9: {message}");
            ExitCode::FAILURE
        }
    }
}
