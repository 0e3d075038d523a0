-- wrk script of the load benchmark (scripts/loadbench.sh, scripts/pgo-profile.sh): POST the
-- file named by the BODY environment variable as application/json.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = assert(io.open(os.getenv("BODY"), "rb"))
wrk.body = f:read("*a")
f:close()
