-- POST /v1/sessions/{id}/routes on a random session: addTodo, then cancel, then addTodo... per
-- session (a flag per session, flipped at each request).
-- Arguments after `--`: the sessions file, and a state file that carries the flags from one wrk
-- run to the next (sessions left with the todoAdd modal open), so a new run starts in step.
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
require "common"

local add, cancel = {}, {}
open = {}
local state_file

function init(args)
    math.randomseed(os.time() + (tonumber(tostring({}):match("0x(%x+)"), 16) or 0))
    for i, s in ipairs(read_sessions(args[1])) do
        local path = "/v1/sessions/" .. s.id .. "/routes"
        local headers = { ["Authorization"] = "Bearer " .. s.token, ["Content-Type"] = "application/json" }
        add[i] = wrk.format("POST", path, headers, '{"route":"addTodo"}')
        cancel[i] = wrk.format("POST", path, headers, '{"route":"cancel"}')
        open[i] = false
    end
    state_path = args[2]
    local f = args[2] and io.open(args[2], "r")
    if f then
        for line in f:lines() do
            local i = tonumber(line)
            if i and open[i] ~= nil then open[i] = true end
        end
        f:close()
    end
end

function request()
    local i = math.random(#add)
    local was = open[i]
    open[i] = not was
    if was then return cancel[i] else return add[i] end
end

-- done() runs in the main Lua state, which never ran init(): the path is read again from the
-- thread and the flags copied out of it.
function after_done(threads)
    for _, thread in ipairs(threads) do
        local path = thread:get("state_path")
        local flags = thread:get("open")
        if path and flags then
            local f = assert(io.open(path, "w"))
            for i, v in pairs(flags) do if v then f:write(i, "\n") end end
            f:close()
        end
    end
end
