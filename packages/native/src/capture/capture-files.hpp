// The file steps of a capture folder's crash-safety contract (FORMAT.md): write a temporary file,
// make it durable, rename it into place, sync the folder. Every failure throws CaptureWriteError
// naming the file and the errno text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kreplay::capture {

/** Creates a folder unless it exists. */
void makeDirectory(const std::string& path);
/** Writes bytes to `path` (created or truncated); with `sync`, fsyncs them before closing. */
void writeFile(const std::string& path, const std::uint8_t* data, std::size_t size, bool sync);
/** Makes a file written earlier durable (fdatasync). */
void syncFile(const std::string& path);
/** Makes every file of the file system holding `path` durable (syncfs): one call for many files. */
void syncFileSystem(const std::string& path);
/** fsyncs a folder, so the renames inside it are durable. */
void syncDirectory(const std::string& path);
/** Renames `from` to `to` (the same folder); the caller syncs the folder. */
void renameFile(const std::string& from, const std::string& to);
/** The name a file is written under before it is renamed: `.tmp-<name>-<pid>`. */
std::string temporaryName(const std::string& name);
/** A launch's record name: its sequence in 8 digits. */
std::string sequenceName(std::uint64_t sequence);

}  // namespace kreplay::capture
