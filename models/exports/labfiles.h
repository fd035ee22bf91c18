// How a file this program wrote is told from anyone else's: each output
// carries the lab's own mark where its format has room for one. The command
// line replaces an existing file only when it bears the mark, and then only
// with --force (the rule --db follows with its stamp); anything else is
// left byte for byte as it was.
#pragma once

#include <QByteArray>
#include <QString>

namespace idem::labfiles {

// HTML (the report, a lesson's hand-out): in the head.
inline constexpr const char* kHtmlGenerator = "<meta name='generator' content='idemlab'>";
// Mermaid and PlantUML: a comment line right after the diagram's first line.
inline constexpr const char* kMermaidComment = "%% written by idemlab";
inline constexpr const char* kPlantUmlComment = "' written by idemlab";
// PNG: a tEXt chunk, as QImage::setText writes it.
inline constexpr const char* kPngKey = "Software";
inline constexpr const char* kPngValue = "idemlab";

// Whether the file at `path` is one this program wrote: a trace, an export
// of any format, a hand-out, a picture. Reads its first few kilobytes.
bool writtenByLab(const QString& path);
// The same for the first bytes of a file (tests).
bool looksWrittenByLab(const QByteArray& head);

}  // namespace idem::labfiles
