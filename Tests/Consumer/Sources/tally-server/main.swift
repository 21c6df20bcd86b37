import TallyApp
import WayfinderServer

Server(Tally.makeApplication).run()
