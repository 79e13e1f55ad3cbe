import os, pty, sys
# The age CLI reads a passphrase only from a terminal: this runs it on a pseudo-terminal and answers
# its prompts, so tests can check that `age -d` opens our copies and that we open `age -p` files.
# usage: agepty.py PASSPHRASE args... ; runs `age args` with a pseudo-terminal answering the passphrase prompts
passphrase = sys.argv[1].encode()
pid, fd = pty.fork()
if pid == 0:
    os.execvp('age', ['age'] + sys.argv[2:])
out = b''
while True:
    try:
        data = os.read(fd, 1024)
    except OSError:
        break
    if not data:
        break
    out += data
    if b'passphrase' in data.lower():
        os.write(fd, passphrase + b'\n')
_, status = os.waitpid(pid, 0)
sys.stderr.write(out.decode(errors='replace'))
sys.exit(os.waitstatus_to_exitcode(status))
