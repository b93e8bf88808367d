"""``deploy/nginx.conf`` as a host runs it by hand (docs/operations.md, "Scaling out"):
the deploy folder copied as it is, the upstream of ``nginx-site.conf`` edited to list
the nodes and its ``listen`` to a free port, then ``nginx -c <that folder>/nginx.conf``.
The main file finds the site next to it, wherever the folder is."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from benchmarks._support.live_server import free_port
from benchmarks._support.services import BINARIES, require

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def test_the_deploy_folder_passes_nginx_t_where_the_host_puts_it(tmp_path: Path) -> None:
    require("nginx")
    folder = tmp_path / "deploy"
    folder.mkdir()
    shutil.copy(DEPLOY / "nginx.conf", folder / "nginx.conf")
    site = (DEPLOY / "nginx-site.conf").read_text()
    nodes = "".join(
        f"    server 127.0.0.1:{port} max_fails=1 fail_timeout=5s;\n"
        for port in (free_port(), free_port())
    )
    site, listed = re.subn(r"(?m)^ *server app\d:8000 .*\n", "", site)
    assert listed == 2, "the upstream no longer lists app1 and app2"
    site = site.replace("    keepalive 64;", nodes + "    keepalive 64;")
    site = site.replace("listen 80;", f"listen 127.0.0.1:{free_port()};")
    (folder / "nginx-site.conf").write_text(site)
    checked = subprocess.run(
        [str(BINARIES["nginx"]), "-e", "stderr", "-t", "-c", str(folder / "nginx.conf")],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert checked.returncode == 0, checked.stderr
    assert "test is successful" in checked.stderr
