#pragma once

// The CLI's exit codes: a contract for scripts.
enum ExitCode : int
{
    ExitSuccess = 0,
    ExitUsage = 2,         // bad command line
    ExitIo = 3,            // I/O or connection failure
    ExitInvalidData = 4,   // the input is not valid BSON / not what was expected
    ExitInterrupted = 130, // SIGINT/SIGTERM: stopped cleanly after the current batch (resumable)
};
