"""Whether two hkctl stores hold the same bytes, up to the random uuids a write gives new samples.

Two runs of the same import into equal stores (with HKCTL_NOW pinned) write the same files, lines and change numbers;
only the uuids of new samples differ, since they are random. So each uuid is replaced by its rank of first appearance,
reading the files in path order and each file from its start, and then the files must be equal byte for byte (the
lock file aside: it holds the lock's bookkeeping, not data).

  python3 -m hkbench.storecmp STORE_A STORE_B     # exit 0 when the same, 1 with the first difference otherwise
"""
import os, re, sys

UUID = re.compile(rb"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
SKIPPED = {".lock"}


def files(store):
    found = []
    for folder, _, names in os.walk(store):
        for name in names:
            if name not in SKIPPED:
                found.append(os.path.relpath(os.path.join(folder, name), store))
    return sorted(found)


def canonical(store):
    """Path → bytes with uuids replaced by their rank."""
    ranks = {}

    def rank(match):
        key = match.group(0).lower()
        if key not in ranks:
            ranks[key] = len(ranks)
        return b"uuid-%d" % ranks[key]

    result = {}
    for path in files(store):
        with open(os.path.join(store, path), "rb") as f:
            result[path] = UUID.sub(rank, f.read())
    return result


def difference(a, b):
    """None when the stores are the same up to uuids, else a line saying where they first differ."""
    left, right = canonical(a), canonical(b)
    if left.keys() != right.keys():
        return f"files differ: only in {a}: {sorted(left.keys() - right.keys())[:5]}, " \
               f"only in {b}: {sorted(right.keys() - left.keys())[:5]}"
    for path in sorted(left):
        if left[path] != right[path]:
            x, y = left[path].split(b"\n"), right[path].split(b"\n")
            for number, (p, q) in enumerate(zip(x, y), 1):
                if p != q:
                    return f"{path} line {number}:\n  {p[:400]!r}\n  {q[:400]!r}"
            return f"{path}: {len(x)} lines against {len(y)}"
    return None


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    found = difference(argv[1], argv[2])
    if found:
        print(found)
        return 1
    print(f"same: {len(files(argv[1]))} files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
