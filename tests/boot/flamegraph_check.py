# SPDX-License-Identifier: MIT
# Checks of a flame graph picture (FILE.svg, src/core/flamegraph.c) that --profile wrote for a
# system-mode run, used by profile_test.py:
#   legible  rsvg-convert renders the picture at its own size, and the widest kernel frame
#            (the widest box over "[kernel]") carries its name, or at least 10 characters of
#            it, as a label, and the label's pixels are really dark on the rendered picture
#   script   the picture's zoom and search script, run by node (flamegraph_harness.js) on
#            the picture's own boxes: a click on the widest kernel frame makes it the full
#            width, widens what is over it by the same factor, keeps its callers as dimmed
#            full-width bars and hides the rest; "Reset zoom" puts every box back; a search
#            paints the matching boxes and reports the share of the width under them (within
#            1% of what FILE.folded gives: boxes under a tenth of a pixel are not drawn); a bad
#            regular expression is an alert, Escape clears.
import json
import os
import re
import struct
import subprocess
import xml.etree.ElementTree as ET
import zlib

SVG = '{http://www.w3.org/2000/svg}'
ROW = 16.0          # flamegraph.c's row height
CHAR = 7.0          # and its pixels per character


def run(cmd, package):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except FileNotFoundError:
        raise SystemExit('%s not found (tools/setup.sh installs Debian\'s %s)' % (cmd[0], package))


def read_svg(path):
    root = ET.parse(path).getroot()
    boxes = []
    for g in root.iter(SVG + 'g'):
        if g.get('class') != 'f':
            continue
        r, t = g.find(SVG + 'rect'), g.find(SVG + 'text')
        boxes.append({'name': g.get('data-name'), 'x': float(r.get('x')),
                      'width': float(r.get('width')), 'y': float(r.get('y')),
                      'fill': r.get('fill'), 'text': t.text or '' if t is not None else None})
    script = root.find(SVG + 'script')
    return {'left': float(root.get('data-left')), 'width': float(root.get('data-width')),
            'script': script.text if script is not None else None, 'boxes': boxes}


def inside(b, a):
    """b sits over a (a caller of b, or a itself): b's row is above and within a's span."""
    return b['y'] <= a['y'] and b['x'] >= a['x'] - 0.005 and \
        b['x'] + b['width'] <= a['x'] + a['width'] + 0.005


def kernel_widest(pic):
    """(index, box) of the widest box over the [kernel] box, or None."""
    k = [b for b in pic['boxes'] if b['name'] == '[kernel]']
    if len(k) != 1:
        return None
    over = [(i, b) for i, b in enumerate(pic['boxes'])
            if b is not k[0] and inside(b, k[0]) and b['y'] < k[0]['y']]
    return max(over, key=lambda ib: ib[1]['width']) if over else None


def png_pixels(path):
    """(width, height, bytes per pixel, rows) of an 8-bit RGB or RGBA non-interlaced PNG."""
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise ValueError('not a PNG')
    pos, idat, w, h, bpp = 8, b'', 0, 0, 4
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError('PNG is not 8-bit RGB(A) without interlace')
            bpp = 3 if ctype == 2 else 4
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    raw, stride = zlib.decompress(idat), w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def legible(svg, work):
    """Problems with the picture's legibility (a list, empty when right)."""
    pic = read_svg(svg)
    wk = kernel_widest(pic)
    if not wk:
        return ['the flame graph has no [kernel] box with frames over it']
    _, box = wk
    label, name = box['text'], box['name']
    bad = []
    if not (label == name or (label.endswith('..') and len(label) >= 12 and
                              name.startswith(label[:-2]))):
        bad.append('the widest kernel frame %r (%.1f px) is labelled %r' %
                   (name, box['width'], label))
    png = os.path.join(work, 'flamegraph.png')
    p = run(['rsvg-convert', '-f', 'png', '-o', png, svg], 'librsvg2-bin')
    if p.returncode != 0:
        return bad + ['rsvg-convert could not render the picture: ' + p.stderr[-300:]]
    w, h, bpp, rows = png_pixels(png)
    x0, x1 = int(box['x'] + 3), int(min(box['x'] + 3 + CHAR * len(label), w))
    y0, y1 = int(box['y']), int(min(box['y'] + ROW, h))
    dark = sum(1 for y in range(y0, y1) for x in range(x0, x1)
               if max(rows[y][bpp * x:bpp * x + 3]) < 96)
    if dark < 6 * len(label):
        bad.append('the label %r of the widest kernel frame has %d dark pixels on the '
                   'rendered picture, not %d' % (label, dark, 6 * len(label)))
    print('widest kernel frame: %s, %.1f px, label %r, %d dark pixels' %
          (name, box['width'], label, dark))
    return bad


def folded_share(folded, pattern):
    """Percent of all pcycles under frames matching pattern (FILE.folded)."""
    rx, under, total = re.compile(pattern), 0, 0
    with open(folded) as f:
        for line in f:
            stack, _, n = line.rstrip('\n').rpartition(' ')
            total += int(n)
            if any(rx.search(fr) for fr in ['all'] + stack.split(';')):
                under += int(n)
    return 100.0 * under / total if total else 0.0


def script(svg, folded, pattern, work, harness=os.path.join(os.path.dirname(__file__),
                                                           'flamegraph_harness.js')):
    """Problems with the picture's script (a list, empty when right)."""
    pic = read_svg(svg)
    if not pic['script']:
        return ['the picture has no script']
    wk = kernel_widest(pic)
    if not wk:
        return ['the flame graph has no [kernel] box with frames over it']
    zi, z = wk
    steps = [['click', zi], ['unzoom'], ['search', pattern], ['search', '('], ['key', 'Escape']]
    job = dict(pic, steps=steps)
    path = os.path.join(work, 'flamegraph.json')
    with open(path, 'w') as f:
        json.dump(job, f)
    p = run(['node', harness, path], 'nodejs')
    if p.returncode != 0:
        return ['node could not run the picture\'s script: ' + p.stderr[-600:]]
    zoomed, reset, found, badre, esc = json.loads(p.stdout)
    boxes, bad = pic['boxes'], []
    s = pic['width'] / z['width']
    for i, (b, after) in enumerate(zip(boxes, zoomed['boxes'])):
        caller = b['y'] > z['y'] and inside(z, b)
        over = inside(b, z) and b['width'] * s >= 0.1
        if caller:
            want = (pic['left'], pic['width'], '', '0.5')
        elif over:
            want = (pic['left'] + (b['x'] - z['x']) * s, b['width'] * s, '', '')
        else:
            want = (None, None, 'none', '')
        got = (after['x'], after['width'], after['display'], after['opacity'])
        if (want[2] != got[2] or want[3] != got[3] or
                (want[0] is not None and (abs(want[0] - got[0]) > 0.1 or
                                          abs(want[1] - got[1]) > 0.1))):
            bad.append('zoom into %r: box %d %r is %r, not %r' % (z['name'], i, b['name'],
                                                                  got, want))
            break
    if zoomed['boxes'][zi]['text'] != z['name'] and len(z['name']) * 7 < pic['width']:
        bad.append('zoom into %r: its label is %r' % (z['name'], zoomed['boxes'][zi]['text']))
    if zoomed['unzoom_opacity'] != '1' or reset['unzoom_opacity'] != '0':
        bad.append('"Reset zoom" is not shown while zoomed and hidden after')
    for i, (b, after) in enumerate(zip(boxes, reset['boxes'])):
        if (abs(after['x'] - b['x']) > 0.001 or abs(after['width'] - b['width']) > 0.001 or
                after['display'] or after['opacity'] or after['text'] != b['text']):
            bad.append('after "Reset zoom", box %d %r is %r, not as drawn' % (i, b['name'],
                                                                                after))
            break
    rx = re.compile(pattern)
    painted = [b['name'] for b, after in zip(boxes, found['boxes'])
               if after['fill'] == 'rgb(230,0,230)']
    matching = [b['name'] for b in boxes if rx.search(b['name'])]
    if not matching or painted != matching:
        bad.append('search /%s/ painted %d boxes, %d match' % (pattern, len(painted),
                                                               len(matching)))
    # the share of the width under the matching boxes (a box over another counted once)
    spans, drawn, end = sorted((b['x'], b['x'] + b['width']) for b in boxes
                               if rx.search(b['name'])), 0.0, -1.0
    for lo, hi in spans:
        drawn += max(0.0, hi - max(lo, end))
        end = max(end, hi)
    drawn = 100.0 * drawn / pic['width']
    m = re.match(r'Matched /.*/: ([\d.]+)%$', found['matched'])
    want = folded_share(folded, pattern)
    # boxes under a tenth of a pixel are not drawn, so not counted: the picture may say less
    # than FILE.folded, by little for a function that is not spread over thousands of stacks
    if not m or abs(float(m.group(1)) - drawn) > 0.01 or not want - 1.0 <= drawn <= want + 0.01:
        bad.append('search /%s/ says %r; its boxes cover %.2f%% of the width, FILE.folded '
                   'gives %.2f%%' % (pattern, found['matched'], drawn, want))
    if badre['alerts'] != 1 or esc['matched'] or any(
            after['fill'] != b['fill'] for b, after in zip(boxes, esc['boxes'])):
        bad.append('a bad regular expression is not one alert, or Escape does not clear the '
                   'search (%d alerts, %r)' % (badre['alerts'], esc['matched']))
    print('script: zoom into %s (x%.1f), search /%s/: %s' % (z['name'], s, pattern,
                                                             found['matched']))
    return bad
