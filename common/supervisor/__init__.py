"""Starting and watching Nadine's processes: a loopback Mosquitto (broker), the whole suite of
processes for a script, benchmark or test (suite), and waiting for their retained online status
(online). The command-line front ends are scripts/run_script.py and scripts/wait_online.py."""
