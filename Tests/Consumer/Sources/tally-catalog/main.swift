// A program on WayfinderCore alone (no Foundation): it links only if the library links on its own.
import TallyApp
import WayfinderCore

print(try Tally.makeApplication().catalog.dot, terminator: "")
