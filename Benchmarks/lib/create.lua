-- POST /v1/sessions with a signed-in context (the application starts in the main tabs).
-- Optional argument after `--`: stop after this many responses (the memory benchmark).
package.path = (debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "?.lua;" .. package.path
require "common"

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"context":{"onboarded":true,"authenticated":true,"user":"bench@example.com"}}'

function init(args)
    limit = tonumber(args[1] or "0")
end
