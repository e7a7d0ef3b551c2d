#!/usr/bin/env python3
"""Compiles every Swift block of README.md and of the DocC articles, as an app would write them.

Each ```swift block becomes one module of a scratch package in .build-snippets/ that depends on
this package by path: its declarations (imports, types, extensions, functions, with their
attributes) stay at file scope, and its statements go into an `async throws` function on the
main actor. A block that imports SwiftUI or UIKit is compiled only where those exist (Apple
platforms); the rest compiles everywhere. A block preceded by the line
`<!-- snippet: fragment -->` is a fragment and is skipped; one preceded by
`<!-- snippet: apple -->` uses API only Apple platforms have and is compiled only there.

Blocks of one document build on each other, as a reader reads them: a block sees the types of
the blocks before it and their variables (each block's statements are nested in the previous
block's scope). A document may name what its blocks take as given, in a comment readers do not
see:

    <!-- snippet: given
    let data = Data()
    -->

Run: python3 scripts/check-snippets.py        (exit 1 and file:line of each failing block)
"""
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRATCH = ROOT / ".build-snippets"
DOCUMENTS = [ROOT / "README.md"] + sorted(ROOT.glob("Sources/*/Documentation.docc/**/*.md"))
FRAGMENT = "<!-- snippet: fragment -->"
APPLE_ONLY = "<!-- snippet: apple -->"
DECLARATION = re.compile(
    r"^(?:(?:public|internal|package|private|fileprivate|final|nonisolated|open)\s+)*"
    r"(?:import|struct|class|enum|actor|protocol|extension|func|typealias)\b"
)
LIBRARIES = {
    "Kiln": ".product(name: \"Kiln\", package: \"main\")",
    "KilnModel": ".product(name: \"KilnModel\", package: \"main\")",
    "KilnNetwork": ".product(name: \"KilnNetwork\", package: \"main\")",
    "KilnCache": ".product(name: \"KilnCache\", package: \"main\")",
    "KilnViewModel": ".product(name: \"KilnViewModel\", package: \"main\")",
    "KilnNetworkCache": ".product(name: \"KilnNetworkCache\", package: \"main\")",
    "KilnTesting": ".product(name: \"KilnTesting\", package: \"main\")",
    "Logging": ".product(name: \"Logging\", package: \"swift-log\")",
}


def given(document):
    """The declarations and statements a document's `<!-- snippet: given` comment provides."""
    text = document.read_text(encoding="utf-8")
    parts = re.findall(r"<!-- snippet: given\n(.*?)-->", text, re.S)
    return split("\n".join(parts))


def blocks(document):
    """(line, code) of each checked block."""
    lines = document.read_text(encoding="utf-8").split("\n")
    found, index = [], 0
    while index < len(lines):
        if lines[index].strip() == "```swift":
            start = index
            body = []
            index += 1
            while index < len(lines) and lines[index].strip() != "```":
                body.append(lines[index])
                index += 1
            previous = lines[start - 1].strip() if start > 0 else ""
            if previous == APPLE_ONLY:
                body.insert(0, "// snippet: apple")
            if previous != FRAGMENT:
                found.append((start + 1, "\n".join(body)))
        index += 1
    return found


def depth_change(line):
    """Net brace/bracket/paren depth of a line, ignoring string literals and comments."""
    line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
    line = line.split("//")[0]
    return sum(line.count(c) for c in "{[(") - sum(line.count(c) for c in "}])")


def split(code):
    """The block's file-scope declarations and its statements."""
    declarations, statements = [], []
    lines = code.split("\n")
    index, pending = 0, []
    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        if stripped.startswith("@") and not stripped.startswith("@unknown") and depth_change(line) == 0 and not DECLARATION.match(re.sub(r"^(@\w+(\([^)]*\))?\s*)+", "", stripped)):
            pending.append(line)  # an attribute on its own line: belongs to the next item
            index += 1
            continue
        item = [line]
        depth = depth_change(line)
        index += 1
        while depth > 0 and index < len(lines):
            item.append(lines[index])
            depth += depth_change(lines[index])
            index += 1
        head = re.sub(r"^(@\w+(\([^)]*\))?\s*)+", "", stripped)
        target = declarations if DECLARATION.match(head) else statements
        target.extend(pending + item)
        pending = []
    return "\n".join(declarations), "\n".join(statements)


def implied(document):
    """The modules a document's blocks use without importing them: Foundation, and the module a
    DocC catalog documents (the README's blocks import what they use)."""
    parts = document.parts
    if len(parts) > 2 and parts[0] == "Sources":
        return {"Foundation", parts[1]} | MODULE_DEPENDENCIES.get(parts[1], set())
    return {"Foundation"}


# What each documented module's readers have imported along with it.
MODULE_DEPENDENCIES = {
    "KilnNetwork": {"KilnModel"},
    "KilnNetworkCache": {"KilnModel", "KilnNetwork", "KilnCache"},
    "KilnViewModel": {"KilnModel", "KilnNetwork", "Observation"},
    "KilnTesting": {"KilnModel", "KilnNetwork"},
    "Kiln": {"KilnModel", "KilnNetwork", "KilnCache", "KilnNetworkCache", "KilnViewModel"},
}


def items(code):
    """The top-level items of a block of declarations."""
    found, current, depth = [], [], 0
    for line in code.split("\n"):
        current.append(line)
        depth += depth_change(line)
        stripped = line.strip()
        head = re.sub(r"^(@\w+(\([^)]*\))?\s*)+", "", stripped.split("//")[0].strip())
        if depth <= 0 and head:
            found.append("\n".join(current))
            current, depth = [], 0
    if any(l.strip() for l in current):
        found.append("\n".join(current))
    return found


def declared_name(item):
    extension = re.search(r"\bextension\s+[^{]*", item)
    if extension:
        return extension.group(0).strip()  # one type can have many extensions
    match = re.search(r"\b(?:struct|class|enum|actor|protocol|extension|func|typealias|import)\s+([\w.]+)", item)
    return match.group(0) if match else item


def main():
    checked = []
    for document in DOCUMENTS:
        for line, code in blocks(document):
            checked.append((document.relative_to(ROOT), line, code))
    sources = SCRATCH / "Sources"
    if sources.exists():
        for old in sources.iterdir():
            for file in old.iterdir():
                file.unlink()
            old.rmdir()
    targets, skipped_ui = [], 0
    context = {}  # per document: the declarations so far (by name) and the statements so far
    for number, (document, line, code) in enumerate(checked):
        name = f"Snippet{number:03d}"
        if document not in context:
            given_declarations, given_statements = given(ROOT / document)
            context[document] = {"imports": set(re.findall(r"^\s*import\s+(\w+)", given_declarations, re.M)),
                                 "declarations": {declared_name(i): i for i in items(given_declarations)},
                                 "statements": [given_statements] if given_statements.strip() else []}
        known = context[document]
        imports = set(re.findall(r"^\s*import\s+(\w+)", code, re.M)) | known["imports"] | implied(document)
        # UI imports stay with their block: a later block is UI-only only if it imports UI itself.
        known["imports"] = (known["imports"] | set(re.findall(r"^\s*import\s+(\w+)", code, re.M))) - {"SwiftUI", "UIKit"}
        imports = imports - ({"SwiftUI", "UIKit"} - set(re.findall(r"^\s*import\s+(\w+)", code, re.M)))
        declarations, statements = split(code)
        # A tutorial builds on its earlier blocks: their types and their variables are in scope,
        # and a later declaration of the same name replaces an earlier one.
        earlier = known["statements"][:]
        own = {declared_name(item): item for item in items(declarations)}
        ui = bool({"SwiftUI", "UIKit"} & imports) or "// snippet: apple" in code
        if not ui:
            # What a UI-only block declares exists only where it compiles: later blocks go without.
            known["declarations"].update(own)
            known["statements"].append(statements)
        declared = {**known["declarations"], **own}
        guard = None
        if "SwiftUI" in imports:
            guard = "canImport(SwiftUI)"
        if "UIKit" in imports:
            guard = "canImport(UIKit)"
        if "// snippet: apple" in code:
            guard = "canImport(Darwin)"
        if guard:
            skipped_ui += 1
        body = [f"// {document}:{line}"]
        if guard:
            body.append(f"#if {guard}")
        body += [f"import {module}" for module in sorted(imports)]
        body += [item for item in declared.values() if not item.lstrip().startswith("import ")]
        nested = "".join(f"do {{\n{part}\n" for part in earlier + [statements])
        body.append(f"@MainActor func run{name}() async throws {{\n{nested}{'}' * (len(earlier) + 1)}\n}}")
        if guard:
            body.append("#endif")
        folder = sources / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "Snippet.swift").write_text("\n".join(body) + "\n", encoding="utf-8")
        dependencies = [LIBRARIES[i] for i in sorted(imports) if i in LIBRARIES]
        targets.append((name, dependencies, document, line))
    manifest = [
        "// swift-tools-version: 6.2",
        "import PackageDescription",
        "let package = Package(",
        "    name: \"Snippets\",",
        "    platforms: [.macOS(.v14), .iOS(.v17)],",
        "    dependencies: [",
        f"        .package(name: \"main\", path: \"{ROOT}\"),",
        "        .package(url: \"https://github.com/apple/swift-log\", from: \"1.5.0\"),",
        "    ],",
        "    targets: [",
    ]
    for name, dependencies, _, _ in targets:
        manifest.append(f"        .target(name: \"{name}\", dependencies: [{', '.join(dependencies)}]),")
    manifest += ["    ],", "    swiftLanguageModes: [.v6]", ")"]
    (SCRATCH / "Package.swift").write_text("\n".join(manifest) + "\n", encoding="utf-8")

    # The build stops at the first module that fails: set each failing block aside (an empty
    # file) and build again, until the rest builds.
    failing = {}
    while True:
        result = subprocess.run(
            ["swift", "build", "--package-path", str(SCRATCH), "--scratch-path", str(SCRATCH / ".build")],
            capture_output=True, text=True)
        output = result.stdout + result.stderr
        found = {}
        for match in re.finditer(r"Sources/(Snippet\d{3})/Snippet\.swift:(\d+):\d+: error: (.*)", output):
            found.setdefault(match.group(1), []).append(f"line {match.group(2)}: {match.group(3)}")
        if result.returncode == 0 or not found:
            break
        failing.update(found)
        for name in found:
            (sources / name / "Snippet.swift").write_text("// set aside: does not compile\n", encoding="utf-8")
    for name, dependencies, document, line in targets:
        if name in failing:
            print(f"{document}:{line}: the block does not compile ({name}):")
            for error in dict.fromkeys(failing[name]):
                print(f"    {error}")
    print(f"check-snippets: {len(targets)} blocks ({skipped_ui} UI-only, compiled on Apple platforms), "
          f"{len(failing)} failing")
    if result.returncode != 0 and not found:
        print(output[-4000:])
        return 1
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
