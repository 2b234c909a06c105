"""docs/supported.md is generated from the rule tables and kept up to date."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_supported_table_is_up_to_date():
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "supported_table.py"), "--check"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr


def test_supported_table_names_the_kinds():
    text = (ROOT / "docs" / "supported.md").read_text()
    for row in ("| `np.sum` | differentiated", "| `np.argmax` | constant (no derivative)",
                "| `np.sin` | differentiated", "| `np.linalg.solve` | differentiated", "| `np.linalg.eig` | refused: "):
        assert row in text
