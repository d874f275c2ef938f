# Two hellos: a name ending in ' (2)' and one with four marks stacked on each of four letters; prints the server's answer.
# Usage: python3 names.py PATH/TO/boggle
import subprocess, socket, json, sys, signal
binary = sys.argv[1]
p = subprocess.Popen([binary, "serve", "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
host, port = p.stdout.readline().strip().split()[-1].rsplit(":", 1)
for name in ["ann (2)", "a" + "\u0301\u0300\u0302\u0308" * 4 + "b"]:
    s = socket.create_connection((host, int(port)))
    s.sendall((json.dumps({"type": "hello", "version": 1, "name": name, "room": "r" + str(len(name))}) + "\n").encode())
    msg = json.loads(s.makefile(encoding="utf-8").readline())
    print(f"{binary}: {name!r}: {msg['type']} {msg.get('code','')} {msg.get('message','')}")
p.send_signal(signal.SIGKILL); p.wait()
