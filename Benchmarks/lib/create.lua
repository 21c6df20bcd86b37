-- POST /v1/sessions of a user who has seen the walkthrough and is not signed in (the application
-- starts on the sign-in screen; every such session starts alike).
-- Optional argument after `--`: stop after this many responses (the memory benchmark).
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
require "common"

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"context":{"onboarded":true}}'

function init(args)
    limit = tonumber(args[1] or "0")
end
