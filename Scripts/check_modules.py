#!/usr/bin/env python3
"""Checks the module map in ARCHITECTURE.md against Package.swift and every import in Sources/.

The map's table names each target, its layer and the modules it may import. This fails when:
- a target of Package.swift is missing from the map, or the map names one that is not there;
- there are more than 16 targets besides C shims, tests and fuzzers;
- a source file imports an Earshot module, a C shim or a package product its row does not list;
- a pure module imports a C shim or a networking or logging package;
- a C shim is imported by more than the one module that wraps it;
- a module or executable of Sources/ depends on the test support (what they share with the tests
  is in the harness);
- a suite that depends on a peer (`.enabled(if: TestPeers…)`) is not tagged `.live`;
- a pure module's test target starts a live peer (a sound server, a speech server, a built
  program), which belongs in the test target of a module that does I/O, tagged `.live`.
Run from anywhere: python3 Scripts/check_modules.py
"""
import os, re, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_TARGETS = 16
# Packages a pure module may not import: they do I/O.
IO_PACKAGES = {"NIOCore", "NIOPosix", "NIOHTTP1", "NIOWebSocket", "AsyncHTTPClient", "Logging",
               "ServiceLifecycle", "UnixSignals"}
# Toolchain modules every layer may import.
TOOLCHAIN = {"Glibc", "Musl", "Darwin", "Dispatch", "Foundation", "FoundationEssentials", "Synchronization",
             "_Concurrency", "Testing", "XCTest"}


def package_targets():
    text = open(os.path.join(root, "Package.swift")).read()
    text = text.split("let fuzzTargets")[0]
    found = {}
    for kind, name in re.findall(r'\.(target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"([^"]+)"', text):
        found[name] = kind
    return found


def architecture_map(targets):
    rows = {}
    text = open(os.path.join(root, "ARCHITECTURE.md")).read()
    section = text.split("## Modules", 1)[1].split("\n## ", 1)[0]
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 4 or not cells[0].startswith("`"):
            continue
        name = cells[0].strip("`")
        layer = cells[1]
        allowed = set()
        for item in re.split(r"[,\s]+", cells[3].replace("—", "")):
            item = item.strip("`").strip()
            if item:
                allowed.add("Earshot" + item if "Earshot" + item in targets else item)
        rows[name] = (layer, allowed)
    return rows


def imports_of(directory):
    pattern = re.compile(r"^\s*(?:@testable |@_spi\([^)]*\) )?(?:public |package |internal |private |fileprivate )?import (?:struct |class |enum |func |protocol |typealias )?([A-Za-z_][A-Za-z0-9_]*)")
    found = {}
    for folder, _, names in os.walk(directory):
        for name in names:
            if name.endswith(".swift"):
                path = os.path.join(folder, name)
                for line in open(path, encoding="utf-8"):
                    match = pattern.match(line)
                    if match:
                        found.setdefault(match.group(1), os.path.relpath(path, root))
    return found


def main():
    problems = []
    targets = package_targets()
    rows = architecture_map(targets)
    counted = [n for n, k in targets.items() if k in ("target", "executableTarget") and n != "EarshotTestSupport"]
    if len(counted) > MAX_TARGETS:
        problems.append(f"{len(counted)} targets besides C shims and tests (at most {MAX_TARGETS}): {', '.join(counted)}")
    for name in counted:
        if name not in rows:
            problems.append(f"{name} is in Package.swift but not in ARCHITECTURE.md's map")
    for name in rows:
        if name not in targets:
            problems.append(f"ARCHITECTURE.md's map names {name}, which Package.swift does not declare")
    package_text = open(os.path.join(root, "Package.swift")).read().split("let fuzzTargets")[0]
    for match in re.finditer(r'\.(?:target|executableTarget)\(', package_text):
        depth, end = 1, match.end()
        while depth and end < len(package_text):
            depth += {"(": 1, ")": -1}.get(package_text[end], 0)
            end += 1
        declaration = package_text[match.end():end]
        name = re.search(r'name:\s*"([^"]+)"', declaration)
        if name and name.group(1) != "EarshotTestSupport" and '"EarshotTestSupport"' in declaration:
            problems.append(f"{name.group(1)} depends on EarshotTestSupport in Package.swift: only tests may")
    shim_users = {}
    for name in counted:
        if name not in rows:
            continue
        layer, allowed = rows[name]
        directory = os.path.join(root, "Sources", name)
        for module, where in sorted(imports_of(directory).items()):
            if module in TOOLCHAIN or module == name:
                continue
            if targets.get(module) == "systemLibrary":
                shim_users.setdefault(module, set()).add(name)
            if module not in allowed:
                problems.append(f"{where} imports {module}, which the map does not allow {name}")
            if layer == "pure" and (module in IO_PACKAGES or targets.get(module) == "systemLibrary"):
                problems.append(f"{where} imports {module}: {name} is pure (no C library, no I/O)")
    for shim, users in sorted(shim_users.items()):
        wrappers = [u for u in users if rows[u][0] != "executable"]
        if len(wrappers) > 1:
            problems.append(f"{shim} is wrapped by more than one module: {', '.join(sorted(wrappers))}")
    live_peers = re.compile(r"\b(BuiltProduct|PulseTestServer|PipeWireTestServer|SoundServerKind|SpeechServerProcess|ChildProcess)\b|\.tags\(\.live\)")
    for name, (layer, _) in rows.items():
        directory = os.path.join(root, "Tests", name + "Tests")
        if layer != "pure" or not os.path.isdir(directory):
            continue
        for folder, _, names in os.walk(directory):
            for file in names:
                path = os.path.join(folder, file)
                if file.endswith(".swift") and live_peers.search(open(path, encoding="utf-8").read()):
                    problems.append(f"{os.path.relpath(path, root)} starts a live peer in the tests of {name}, a pure module")
    for folder, _, names in os.walk(os.path.join(root, "Tests")):
        for file in names:
            if not file.endswith(".swift"):
                continue
            path = os.path.join(folder, file)
            text = open(path, encoding="utf-8").read()
            for start in (m.end() for m in re.finditer(r"@Suite\(", text)):
                depth, end = 1, start
                while depth and end < len(text):
                    depth += {"(": 1, ")": -1}.get(text[end], 0)
                    end += 1
                traits = text[start:end]
                if re.search(r"\.enabled\(\s*if:\s*\(?\s*(TestPeers|PrivateUserManager)", traits) and ".tags(.live)" not in traits:
                    problems.append(f"{os.path.relpath(path, root)}: a suite that needs a peer is not tagged .live")
    for problem in problems:
        print("module map:", problem)
    if not problems:
        print(f"module map: {len(counted)} targets besides C shims and tests, every import as ARCHITECTURE.md draws it")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
