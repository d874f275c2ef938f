# 300 rooms opened and left over TCP as fast as one client can, RUST_LOG=info; counts the log's room lines and the lines counting those held back.
# Usage: python3 roomlog.py PATH/TO/boggle
import subprocess, socket, json, sys, time, os, signal
binary = sys.argv[1]
env = dict(os.environ, RUST_LOG="info")
p = subprocess.Popen([binary, "serve", "--listen", "127.0.0.1:0", "--address-rate", "1000",
                      "--max-rooms", "1000", "--max-address-rooms", "1000", "--max-connections", "1000"],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
line = p.stdout.readline()
host, port = line.strip().split()[-1].rsplit(":", 1)
t0 = time.time()
for i in range(300):
    s = socket.create_connection((host, int(port)))
    s.sendall((json.dumps({"type": "hello", "version": 1, "name": "eve", "room": f"r{i}"}) + "\n").encode())
    f = s.makefile()
    assert "welcome" in f.readline()
    s.close()
el = time.time() - t0
time.sleep(0.5)
p.send_signal(signal.SIGTERM)
err = p.stderr.read()
p.wait()
lines = [l for l in err.splitlines() if "room opened" in l or "room closed" in l]
held = [l for l in err.splitlines() if "not logged" in l]
print(f"{binary}: 300 rooms in {el:.2f} s; room lines logged {len(lines)}; held-back lines {len(held)}: {held[-1] if held else ''}; stderr bytes {len(err)}")
