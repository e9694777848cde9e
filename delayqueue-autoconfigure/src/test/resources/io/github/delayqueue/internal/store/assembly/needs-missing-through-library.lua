-- needs: uses-missing
return 1
