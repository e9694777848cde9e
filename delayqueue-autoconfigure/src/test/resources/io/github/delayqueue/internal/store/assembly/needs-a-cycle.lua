-- needs: ping
return 1
