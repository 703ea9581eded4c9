"""Tables and seats, seat draw, balancing and online tables."""
