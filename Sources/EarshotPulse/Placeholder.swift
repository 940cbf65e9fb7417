import CPulse
