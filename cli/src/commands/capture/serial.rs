//! The byte source of `etrace capture`: a serial device (a board's USB UART) set to raw
//! 8N1 at a standard baud rate with the POSIX terminal interface (`termios`), or any other
//! readable file (a FIFO, a saved stream) read as it is. Reads wait at most a given time,
//! so that the caller can check its stop conditions.

use std::fs::File;
use std::io::{self, Read};
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::time::Duration;

/// The standard rates of the Linux terminal interface (`B50` .. `B4000000`).
const RATES: [(u32, libc::speed_t); 30] = [
    (50, libc::B50),
    (75, libc::B75),
    (110, libc::B110),
    (134, libc::B134),
    (150, libc::B150),
    (200, libc::B200),
    (300, libc::B300),
    (600, libc::B600),
    (1200, libc::B1200),
    (1800, libc::B1800),
    (2400, libc::B2400),
    (4800, libc::B4800),
    (9600, libc::B9600),
    (19_200, libc::B19200),
    (38_400, libc::B38400),
    (57_600, libc::B57600),
    (115_200, libc::B115200),
    (230_400, libc::B230400),
    (460_800, libc::B460800),
    (500_000, libc::B500000),
    (576_000, libc::B576000),
    (921_600, libc::B921600),
    (1_000_000, libc::B1000000),
    (1_152_000, libc::B1152000),
    (1_500_000, libc::B1500000),
    (2_000_000, libc::B2000000),
    (2_500_000, libc::B2500000),
    (3_000_000, libc::B3000000),
    (3_500_000, libc::B3500000),
    (4_000_000, libc::B4000000),
];

/// Why the source cannot be opened or set up.
#[derive(Debug, thiserror::Error)]
pub enum SerialError {
    /// The baud rate is not one of the terminal interface's rates.
    #[error("baud rate {0} is not a standard rate (for example 115200, 921600, 1000000, 2000000, 3000000)")]
    Baud(u32),
    /// Opening or configuring the device failed.
    #[error("{what}: {source}")]
    Io {
        /// The step that failed.
        what: &'static str,
        /// The system's error.
        source: io::Error,
    },
}

fn io_error(what: &'static str) -> impl FnOnce(io::Error) -> SerialError {
    move |source| SerialError::Io { what, source }
}

/// The terminal-interface speed of `baud`.
pub fn speed(baud: u32) -> Result<libc::speed_t, SerialError> {
    RATES
        .iter()
        .find(|&&(rate, _)| rate == baud)
        .map(|&(_, s)| s)
        .ok_or(SerialError::Baud(baud))
}

/// What one [`Source::read`] gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadOutcome {
    /// This many bytes were read into the buffer.
    Bytes(usize),
    /// Nothing arrived within the wait (or a signal interrupted it).
    Idle,
    /// The source ended: end of file, or the device hung up.
    End,
}

/// An open byte source.
pub struct Source {
    file: File,
    /// The source is a terminal (a serial device or a pseudo-terminal).
    pub is_terminal: bool,
}

impl Source {
    /// Opens `path` without blocking (a FIFO with no writer yet, a terminal waiting for its
    /// carrier: the stop conditions of the caller apply from the start, reads wait with
    /// `poll`); a terminal is set to raw 8N1 input at `baud` (receiver on, modem control
    /// lines ignored, no flow control, no character translation). Input already waiting
    /// is kept: the deframer skips to the next synchronisation sequence anyway.
    pub fn open(path: &Path, baud: u32) -> Result<Source, SerialError> {
        let speed = speed(baud)?;
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOCTTY | libc::O_NONBLOCK)
            .open(path)
            .map_err(io_error("cannot open"))?;
        let fd = file.as_raw_fd();
        // SAFETY: `fd` is an open descriptor owned by `file` for the whole block; `tio`
        // is a plain C struct that tcgetattr fills in.
        let is_terminal = unsafe { libc::isatty(fd) } == 1;
        if is_terminal {
            unsafe {
                let mut tio: libc::termios = std::mem::zeroed();
                if libc::tcgetattr(fd, &mut tio) != 0 {
                    return Err(io_error("cannot read the terminal settings")(
                        io::Error::last_os_error(),
                    ));
                }
                libc::cfmakeraw(&mut tio);
                tio.c_cflag &= !(libc::CSIZE | libc::PARENB | libc::CSTOPB | libc::CRTSCTS);
                tio.c_cflag |= libc::CS8 | libc::CREAD | libc::CLOCAL;
                tio.c_iflag &= !(libc::IXON | libc::IXOFF | libc::IXANY);
                tio.c_cc[libc::VMIN] = 1;
                tio.c_cc[libc::VTIME] = 0;
                if libc::cfsetispeed(&mut tio, speed) != 0
                    || libc::cfsetospeed(&mut tio, speed) != 0
                    || libc::tcsetattr(fd, libc::TCSANOW, &tio) != 0
                {
                    return Err(io_error("cannot set the terminal to raw 8N1")(
                        io::Error::last_os_error(),
                    ));
                }
            }
        }
        Ok(Source { file, is_terminal })
    }

    /// Reads what is there, waiting at most `wait` for a first byte.
    pub fn read(&mut self, buf: &mut [u8], wait: Duration) -> io::Result<ReadOutcome> {
        let mut pfd = libc::pollfd {
            fd: self.file.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let ms = wait.as_millis().min(i32::MAX as u128) as i32;
        // SAFETY: one valid pollfd for the duration of the call.
        let n = unsafe { libc::poll(&mut pfd, 1, ms) };
        if n < 0 {
            let e = io::Error::last_os_error();
            return if e.kind() == io::ErrorKind::Interrupted {
                Ok(ReadOutcome::Idle)
            } else {
                Err(e)
            };
        }
        if n == 0 {
            return Ok(ReadOutcome::Idle);
        }
        if pfd.revents & (libc::POLLIN | libc::POLLHUP | libc::POLLERR) == 0 {
            return Ok(ReadOutcome::Idle);
        }
        match self.file.read(buf) {
            Ok(0) => Ok(ReadOutcome::End),
            Ok(n) => Ok(ReadOutcome::Bytes(n)),
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock
                ) =>
            {
                Ok(ReadOutcome::Idle)
            }
            // A terminal whose other side closed (a pseudo-terminal's master, an
            // unplugged USB adapter) reads as EIO: the stream has ended.
            Err(e) if self.is_terminal && e.raw_os_error() == Some(libc::EIO) => {
                Ok(ReadOutcome::End)
            }
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_rates_are_accepted_and_others_rejected() {
        assert_eq!(speed(115_200).unwrap(), libc::B115200);
        assert_eq!(speed(3_000_000).unwrap(), libc::B3000000);
        assert!(matches!(speed(0), Err(SerialError::Baud(0))));
        assert!(matches!(speed(123_456), Err(SerialError::Baud(123_456))));
    }
}
