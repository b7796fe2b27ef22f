# What changes from run to run: the rendezvous peers' ports (the kernel's
# choice), run ids, start times, the host name.
s/127\.0\.0\.\([0-9]*\):[0-9][0-9]*/127.0.0.\1:PORT/g
s/localhost:[0-9][0-9]*/localhost:PORT/g
s/"run_id": *"[0-9a-f-]*"/"run_id":"RUN_ID"/g
s/"start_time": *"[^"]*"/"start_time":"TIME"/g
s/run [0-9a-f]\{8\}-[0-9a-f-]*/run RUN_ID/g
