# 20 addresses (127.1.0.1 .. 127.20.0.1, a /24 each) each make up to 10 rooms, then open up to 60 more connections (pinged to see they were let in), all at once; then a newcomer from 127.0.0.1 asks for a new room, an open room and today's board. Default flags.
# Usage: python3 share.py PATH/TO/boggle
import subprocess, socket, json, sys, time, os, signal, threading
binary = sys.argv[1]
p = subprocess.Popen([binary, "serve", "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
host, port = p.stdout.readline().strip().split()[-1].rsplit(":", 1)
port = int(port)
def conn(src):
    s = socket.socket(); s.bind((src, 0)); s.connect((host, port)); s.settimeout(20)
    return s, s.makefile()
def hello(src, room, name="eve", solo=None):
    s, f = conn(src)
    m = {"type": "hello", "version": 1, "name": name, "room": room}
    if solo: m["solo"] = solo
    s.sendall((json.dumps(m) + "\n").encode())
    while True:
        line = f.readline()
        if not line: return None, "closed"
        msg = json.loads(line)
        if msg["type"] == "welcome": return s, "welcome"
        if msg["type"] == "error": s.close(); return None, msg["code"] + ": " + msg["message"]
held = []; lock = threading.Lock(); rooms = [0]; conns = [0]
def attack(i):
    src = f"127.{i}.0.1"
    for k in range(10):
        s, why = hello(src, f"e{i}-{k}")
        if not s: break
        with lock: held.append(s); rooms[0] += 1; conns[0] += 1
    for _ in range(60):
        s, f = conn(src)
        s.sendall(b'{"type":"ping"}\n')
        msg = json.loads(f.readline() or '{"type":"closed"}')
        if msg["type"] != "pong":
            s.close()
            if "new connections a second" in msg.get("message", ""):
                time.sleep(0.2); continue
            break
        with lock: held.append(s); conns[0] += 1
t0 = time.time()
ts = [threading.Thread(target=attack, args=(i,)) for i in range(1, 21)]
[t.start() for t in ts]; [t.join() for t in ts]
print(f"{binary}: 20 addresses hold {rooms[0]} rooms and {conns[0]} connections after {time.time()-t0:.1f} s")
for what, room, solo in [("a new room", "newcomer", None), ("an open room", "e1-0", None), ("today's board", "main", {"daily": True})]:
    s, why = hello("127.0.0.1", room, "ann", solo)
    print(f"  newcomer asks for {what}: {why}")
    if s: held.append(s)
p.send_signal(signal.SIGKILL); p.wait()
