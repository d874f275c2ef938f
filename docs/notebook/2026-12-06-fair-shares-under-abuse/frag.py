# A WebSocket client joins, starts a text message (not final) and sends empty continuation frames for 10 s from a writer thread; says how many bytes went, whether and how the connection was cut, whether too_long was heard, and the server's CPU seconds.
# Usage: python3 frag.py PATH/TO/boggle
import subprocess, socket, json, sys, time, os, signal, base64, tempfile
binary = sys.argv[1]
d = tempfile.mkdtemp()
p = subprocess.Popen([binary, "serve", "--listen", "127.0.0.1:0", "--web", "127.0.0.1:0", "--data", d], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
p.stdout.readline(); web = p.stdout.readline().strip().split()[-1].replace("http://", "").strip("/")
host, port = web.rsplit(":", 1)
s = socket.create_connection((host, int(port)))
key = base64.b64encode(os.urandom(16)).decode()
s.sendall(f"GET /ws HTTP/1.1\r\nHost: {web}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: http://{web}\r\n\r\n".encode())
head = b""
while b"\r\n\r\n" not in head: head += s.recv(4096)
assert b" 101 " in head.split(b"\r\n")[0], head
def frame(op, payload=b"", fin=True):
    mask = b"\x12\x34\x56\x78"
    return bytes([(0x80 if fin else 0) | op, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
hello = json.dumps({"type": "hello", "version": 1, "name": "eve"}).encode()
s.sendall(frame(1, hello))
s.sendall(frame(1, b"", fin=False))
chunk = frame(0, b"", fin=False) * 10000
import threading
state = {"sent": 0, "cut": None}
t0 = time.time()
def writer():
    while time.time() - t0 < 10:
        try:
            s.sendall(chunk); state["sent"] += len(chunk)
        except OSError as e:
            state["cut"] = f"write failed: {e.strerror}"; return
w = threading.Thread(target=writer, daemon=True); w.start()
got = b""
s.settimeout(0.5)
while time.time() - t0 < 11:
    try:
        r = s.recv(65536)
        if r == b"":
            state["cut"] = state["cut"] or "closed"; break
        got += r
    except socket.timeout: pass
    except OSError as e:
        state["cut"] = state["cut"] or f"read failed: {e.strerror}"; break
w.join(2)
sent, cut = state["sent"], state["cut"]
cpu = open(f"/proc/{p.pid}/stat").read().split()
utime = (int(cpu[13]) + int(cpu[14])) / os.sysconf("SC_CLK_TCK")
print(f"{binary}: {sent/1e6:.1f} MB of empty fragments sent (10 s at most); cut: {cut}; too_long heard: {b'too_long' in got}; server CPU {utime:.1f} s")
p.send_signal(signal.SIGKILL); p.wait()
