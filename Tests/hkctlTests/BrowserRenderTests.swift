import Foundation
import Testing
import TestKit

/// `hkctl chart --svg` rendered by a real headless browser (Debian's chromium, installed when missing).
@Suite(.enabled(if: SystemPackages.chromium == nil,
                "chromium is not installed and could not be installed with apt-get, so SVG charts are not rendered"))
struct BrowserRenderTests {
    /// Decodes a PNG (8-bit RGB or RGBA) with zlib and counts white, non-white and chart-blue/green pixels.
    static let pixelCounter = """
        import struct, sys, zlib
        data = open(sys.argv[1], 'rb').read()
        assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n', 'not a PNG'
        pos, idat = 8, b''
        while pos < len(data):
            length, kind = struct.unpack('>I4s', data[pos:pos + 8])
            chunk = data[pos + 8:pos + 8 + length]
            pos += 12 + length
            if kind == b'IHDR':
                width, height, depth, colour = struct.unpack('>IIBB', chunk[:10])
            elif kind == b'IDAT':
                idat += chunk
        assert depth == 8 and colour in (2, 6), (depth, colour)
        bpp = 3 if colour == 2 else 4
        raw, stride = zlib.decompress(idat), width * bpp
        previous, nonwhite, bars = bytearray(stride), 0, 0
        for y in range(height):
            start = y * (stride + 1)
            kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                b = previous[x]
                c = previous[x - bpp] if x >= bpp else 0
                if kind == 1: line[x] = (line[x] + a) & 255
                elif kind == 2: line[x] = (line[x] + b) & 255
                elif kind == 3: line[x] = (line[x] + (a + b) // 2) & 255
                elif kind == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            for x in range(0, stride, bpp):
                r, g, b = line[x], line[x + 1], line[x + 2]
                if min(r, g, b) < 235: nonwhite += 1
                if r < 110 and b > 100 and (b > r + 60 or g > r + 60): bars += 1
            previous = line
        print(width, height, nonwhite, bars)
        """

    @Test(arguments: ["steps", "sleep", "weight"])
    func svgRendersInChromium(type: String) throws {
        try TerminalCLITests.withDemo { cli in
            let folder = TestSupport.scratchRoot + "hkctl-browser-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let svg = folder + "/\(type).svg", png = folder + "/\(type).png"
            try expectEqual(cli.run(["chart", type, "--week", "--svg", svg]).status, 0)
            let shot = try SystemPackages.shell("""
                timeout 180 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars \
                  --user-data-dir='\(folder)/profile' --window-size=800,420 --screenshot='\(png)' 'file://\(svg)'
                """, environment: ["HOME": folder])
            #expect(FileManager.default.fileExists(atPath: png), "no screenshot: \(shot.err.suffix(500))")
            try Self.pixelCounter.write(toFile: folder + "/count.py", atomically: true, encoding: .utf8)
            let counts = try SystemPackages.shell("python3 '\(folder)/count.py' '\(png)'")
            expectEqual(counts.status, 0, "\(counts.err)")
            let numbers = counts.out.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            try #require(numbers.count == 4, "\(counts.out)")
            let (width, height, nonwhite, bars) = (numbers[0], numbers[1], numbers[2], numbers[3])
            #expect(width == 800 && height == 420)
            #expect(nonwhite > width * height / 50, "only \(nonwhite) non-white pixels: the page is blank")
            #expect(bars > 500, "only \(bars) pixels in the chart's colours: the chart was not drawn")
        }
    }
}
