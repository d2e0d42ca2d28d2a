# model: dyntickRCU-irq-nmi-ssl.spin
# what: waitack's second test lets the CPU off when curr is odd (busy) instead of even; here the depth-first search meets the other half of the damage first: an idle CPU (curr even) is no longer let off, so the grace period never ends
# caught-by: !(shouldexit)
s/(curr - snap) > 2 || (curr \& 1) == 0/(curr - snap) > 2 || (curr \& 1) == 1/
