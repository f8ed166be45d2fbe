#!/usr/bin/env python3
"""gen_man: writes gltrace(1) and a gltrace-COMMAND(1) page per command,
in man(7) roff, from the --help texts of a built gltrace. The commands are
the ones `gltrace --help` lists, so the pages follow the tool as it grows.
The help texts are laid out by hand (aligned option columns): they go in
as they are, in no-fill blocks. Standard library only.

usage: gen_man.py GLTRACE OUT_DIR VERSION"""
import os
import re
import subprocess
import sys


def help_text(argv):
    """What argv prints for --help (some tools print it on stderr)."""
    # A sanitized build's gltrace: a leak report is not help text.
    asan = ':'.join(filter(None, [os.environ.get('ASAN_OPTIONS'), 'detect_leaks=0']))
    p = subprocess.run(argv, capture_output=True, text=True, timeout=60, env=dict(os.environ, ASAN_OPTIONS=asan))
    text = p.stdout if p.stdout.strip() else p.stderr
    if 'usage' not in text.lower():
        sys.exit(f'gen_man: {" ".join(argv)} printed no usage: {p.stderr.strip()}')
    return text.rstrip('\n').split('\n')


def roff(line):
    """One line of text as roff: backslashes and dashes escaped, a leading
    dot or quote made harmless."""
    s = line.replace('\\', '\\e').replace('-', '\\-')
    return '\\&' + s if s.startswith(('.', "'")) else s


def block(lines):
    """Preformatted lines: no filling, no adjusting, no hyphenation."""
    body = [roff(l) if l.strip() else '' for l in lines]
    # A blank line inside .nf is fine for man, but .sp says it to groff.
    body = ['.sp' if not l else l for l in body]
    return ['.nf'] + body + ['.fi']


def split_usage(lines):
    """(synopsis lines, the rest): the usage line and its continuation
    lines (indented under it, not an option), without 'usage: '."""
    syn = [re.sub(r'^usage:\s*', '', lines[0])]
    i = 1
    while i < len(lines) and re.match(r'^ {7,}[^\s-]', lines[i]):
        syn.append(lines[i].strip())
        i += 1
    rest = lines[i:]
    while rest and not rest[0].strip():
        rest = rest[1:]
    return syn, rest


def page(name, summary, version, synopsis, sections):
    # .nh: command names are not hyphenated at line ends.
    out = [f'.TH {name.upper()} 1 "" "gltrace {version}" "gltrace manual"', '.nh',
           '.SH NAME', f'{roff(name)} \\- {roff(summary)}',
           '.SH SYNOPSIS'] + block(synopsis)
    for title, body in sections:
        out += [f'.SH {title}'] + body
    return '\n'.join(out) + '\n'


def commands(top):
    """[(name, summary)] from the 'commands:' part of `gltrace --help`."""
    out, inside = [], False
    for line in top:
        if line.strip() == 'commands:':
            inside = True
        elif inside:
            m = re.match(r'^  (\S+)\s+(.*)$', line)
            if not m:
                break
            out.append((m.group(1), m.group(2).strip()))
    if not out:
        sys.exit('gen_man: `gltrace --help` lists no commands')
    return out


def main():
    gltrace, out_dir, version = sys.argv[1:4]
    os.makedirs(out_dir, exist_ok=True)
    top = help_text([gltrace, '--help'])
    cmds = commands(top)
    see_also = ', '.join(f'\\fBgltrace\\-{roff(c)}\\fR(1)' for c, _ in cmds)
    pages = {}
    for name, summary in cmds:
        synopsis, rest = split_usage(help_text([gltrace, name, '--help']))
        pages[f'gltrace-{name}'] = page(f'gltrace-{name}', summary, version, synopsis, [
            ('DESCRIPTION', [roff(summary[:1].upper() + summary[1:]) + '.'] + (['.PP'] + block(rest) if rest else [])),
            ('SEE ALSO', ['\\fBgltrace\\fR(1)'])])
    listing = []
    for name, summary in cmds:
        listing += ['.TP', f'\\fBgltrace\\-{roff(name)}\\fR(1)', roff(summary)]
    pages['gltrace'] = page('gltrace', 'capture and headless replay of OpenGL ES programs', version,
                            ['gltrace COMMAND [ARGS...]', 'gltrace --help | --version'], [
        ('DESCRIPTION', ['Records the GLES and EGL calls of a program into a trace, and replays '
                         'traces headless, comparing their snapshots; one command per task:']),
        ('COMMANDS', listing),
        ('OPTIONS', ['.TP', '\\fB\\-\\-help\\fR', 'list the commands',
                     '.TP', '\\fB\\-\\-version\\fR', 'print the version']),
        ('SEE ALSO', [see_also])])
    # Pages of commands gone since the last build would be installed too.
    for f in os.listdir(out_dir):
        if f.endswith('.1') and f[:-2] not in pages:
            os.remove(os.path.join(out_dir, f))
    for name, text in pages.items():
        with open(os.path.join(out_dir, name + '.1'), 'w') as f:
            f.write(text)


if __name__ == '__main__':
    main()
