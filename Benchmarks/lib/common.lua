-- Shared by the wrk scripts: a non-2xx counter per thread, printed by done().
-- wrk runs request()/response() in each thread's own Lua state; done() runs in the main state and
-- reads every thread's counters through the thread objects collected in setup().
local threads = {}

function setup(thread)
    table.insert(threads, thread)
end

non2xx = 0
statuses = {}

function response(status, headers, body)
    if status < 200 or status > 299 then
        non2xx = non2xx + 1
        statuses[status] = (statuses[status] or 0) + 1
    end
    if limit and limit > 0 then
        -- A fixed number of requests (wrk itself only knows durations): report and leave at once
        -- (thread:stop() would leave wrk sleeping until -d is over).
        answered = (answered or 0) + 1
        if answered >= limit then
            local detail = {}
            for code, n in pairs(statuses) do detail[#detail + 1] = code .. "=" .. n end
            io.write(string.format("NON2XX %d %s\nRESPONSES %d\n", non2xx, table.concat(detail, ","), answered))
            io.flush()
            os.exit(0)
        end
    end
end

function done(summary, latency, requests)
    local total, detail = 0, {}
    for _, thread in ipairs(threads) do
        total = total + (thread:get("non2xx") or 0)
        local s = thread:get("statuses")
        if s then for code, n in pairs(s) do detail[#detail + 1] = code .. "=" .. n end end
    end
    io.write(string.format("NON2XX %d %s\n", total, table.concat(detail, ",")))
    io.write(string.format("RESPONSES %d\n", summary.requests))
    io.write(string.format("LAT_P50_US %.1f\nLAT_P99_US %.1f\n", latency:percentile(50), latency:percentile(99)))
    if after_done then after_done(threads) end
end

-- Reads "id token" lines.
function read_sessions(path)
    local list = {}
    for line in io.lines(path) do
        local id, token = line:match("^(%S+)%s+(%S+)")
        if id then list[#list + 1] = { id = id, token = token } end
    end
    assert(#list > 0, "no sessions in " .. path)
    return list
end
