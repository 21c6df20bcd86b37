import ShopApp
import WayfinderServer

// The `shop` executable: the example app and its payment service, served by the server library.
Server(Shop.makeApplication, services: Shop.makeServices).run()
